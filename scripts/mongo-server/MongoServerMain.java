import de.bwaldvogel.mongo.MongoCollection;
import de.bwaldvogel.mongo.MongoDatabase;
import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.ServerVersion;
import de.bwaldvogel.mongo.backend.AbstractMongoBackend;
import de.bwaldvogel.mongo.backend.Index;
import de.bwaldvogel.mongo.backend.IndexKey;
import de.bwaldvogel.mongo.backend.h2.H2Backend;
import de.bwaldvogel.mongo.backend.h2.H2Database;
import de.bwaldvogel.mongo.backend.memory.MemoryBackend;
import de.bwaldvogel.mongo.backend.memory.MemoryDatabase;
import de.bwaldvogel.mongo.bson.BsonRegularExpression;
import de.bwaldvogel.mongo.bson.Document;
import de.bwaldvogel.mongo.bson.ObjectId;
import de.bwaldvogel.mongo.exception.KeyConstraintError;
import de.bwaldvogel.mongo.wire.message.MongoMessage;
import io.netty.channel.Channel;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.regex.Pattern;

/**
 * Serves the MongoDB wire protocol on this machine, where MongoDB itself cannot be installed.
 * Arguments: host port [h2-file]. Without a file the data lives in memory (tests).
 */
/**
 * A unique index that also serves a query naming its fields among others. mongo-java-server uses an
 * index only for a query with exactly the index's fields, so `{key, state, holdState}` (a settle)
 * or `{_id, coins: {$gte: n}}` (a debit) read the whole collection, the ledger growing with every
 * charge. Here the index finds the one candidate by its own fields and the server's matcher checks
 * the whole query on it, as MongoDB does.
 */
final class SupersetIndex<P> extends Index<P> {
    private final Index<P> inner;

    SupersetIndex(Index<P> inner, String name, List<IndexKey> keys, boolean sparse) {
        super(name, keys, sparse);
        this.inner = inner;
    }

    /**
     * The query's conditions on this index's fields, or null (read every document, as the server does without this index) unless
     * each is a shape the index looks up exactly: a plain value, or on a one-field index `{$in: [plain
     * values]}`. Arrays, regular expressions, nulls and other operators are not: the index stores no
     * entry for an empty array, looks a regular expression up as a value, and leaves out the
     * documents of a sparse index that lack the field.
     */
    private Document own(Document query) {
        if (!query.keySet().containsAll(keySet())) return null;
        Document own = new Document();
        for (String key : keys()) {
            Object value = query.get(key);
            if (!isPlain(value) && !(keys().size() == 1 && isPlainIn(value))) return null;
            own.put(key, value);
        }
        return own;
    }

    private static boolean isPlain(Object value) {
        return value != null
            && !(value instanceof Document)
            && !(value instanceof Collection)
            && !(value instanceof Object[])
            && !(value instanceof BsonRegularExpression)
            && !(value instanceof Pattern);
    }

    private static boolean isPlainIn(Object value) {
        if (!(value instanceof Document) || ((Document) value).size() != 1) return false;
        Object values = ((Document) value).get("$in");
        if (!(values instanceof Collection)) return false;
        for (Object item : (Collection<?>) values) if (!isPlain(item)) return false;
        return true;
    }

    @Override public boolean canHandle(Document query) {
        Document own = own(query);
        return own != null && inner.canHandle(own);
    }

    @Override public Iterable<P> getPositions(Document query) { return inner.getPositions(own(query)); }
    @Override public P getPosition(Document document) { return inner.getPosition(document); }
    @Override public void checkAdd(Document document, MongoCollection<P> collection) { inner.checkAdd(document, collection); }
    @Override public void add(Document document, P position, MongoCollection<P> collection) { inner.add(document, position, collection); }
    @Override public P remove(Document document) { return inner.remove(document); }
    @Override public long getCount() { return inner.getCount(); }
    @Override public boolean isEmpty() { return inner.isEmpty(); }
    @Override public long getDataSize() { return inner.getDataSize(); }
    @Override public void checkUpdate(Document oldDocument, Document newDocument, MongoCollection<P> collection) {
        inner.checkUpdate(oldDocument, newDocument, collection);
    }
    @Override public void updateInPlace(Document oldDocument, Document newDocument, P position, MongoCollection<P> collection)
            throws KeyConstraintError {
        inner.updateInPlace(oldDocument, newDocument, position, collection);
    }
    @Override public void drop() { inner.drop(); }
    @Override public boolean isUnique() { return inner.isUnique(); }
}

/**
 * A non-unique index of the memory backend, on its first field: mongo-java-server ignores non-unique
 * indexes, so "the last ten messages of this phone" or "this user's ledger entries" read the whole
 * collection. Here a query with a string or ObjectId (or `$in` of them) on the index's first field gets
 * the documents holding that value, in storage order as a scan would give them, and the server's
 * matcher checks the whole query (the other fields, sorts and limits work as without the index). A document
 * whose field is an array turns the index off for good: a query value may then match an element,
 * which this index does not look up.
 */
final class FirstFieldIndex extends Index<Integer> {
    private final String field;
    /** Field value → (document _id → position); documents without a string or ObjectId value under OTHER. */
    private final Map<Object, Map<Object, Integer>> byValue = new HashMap<>();
    private static final Object OTHER = new Object();
    private boolean multikey;
    private long count;

    FirstFieldIndex(String name, List<IndexKey> keys, boolean sparse) {
        super(name, keys, sparse);
        this.field = keys.get(0).getKey();
    }

    static boolean serves(List<IndexKey> keys) {
        return !keys.isEmpty() && !keys.get(0).getKey().contains(".") && !keys.get(0).getKey().startsWith("$");
    }

    private static boolean looksUp(Object value) {
        return value instanceof String || value instanceof ObjectId;
    }

    private Object bucketOf(Document document) {
        Object value = document.get(field);
        if (value instanceof Collection || value instanceof Object[]) multikey = true;
        return looksUp(value) ? value : OTHER;
    }

    /** The values the query asks for on the field, or null when this index cannot answer it. */
    private List<Object> wanted(Document query) {
        if (multikey || !query.containsKey(field)) return null;
        Object condition = query.get(field);
        if (looksUp(condition)) return List.of(condition);
        if (!(condition instanceof Document) || ((Document) condition).size() != 1) return null;
        Object in = ((Document) condition).get("$in");
        if (!(in instanceof Collection)) return null;
        List<Object> values = new ArrayList<>();
        for (Object value : (Collection<?>) in) {
            if (!looksUp(value)) return null;
            values.add(value);
        }
        return values;
    }

    @Override public boolean canHandle(Document query) { return wanted(query) != null; }

    /** Each position once, ascending (the order of a scan): an `$in` may name one value twice. */
    @Override public Iterable<Integer> getPositions(Document query) {
        TreeSet<Integer> positions = new TreeSet<>();
        for (Object value : wanted(query)) {
            Map<Object, Integer> bucket = byValue.get(value);
            if (bucket != null) positions.addAll(bucket.values());
        }
        return new ArrayList<>(positions);
    }

    @Override public Integer getPosition(Document document) {
        Map<Object, Integer> bucket = byValue.get(bucketOf(document));
        return bucket == null ? null : bucket.get(document.get("_id"));
    }

    @Override public void checkAdd(Document document, MongoCollection<Integer> collection) {}

    @Override public void add(Document document, Integer position, MongoCollection<Integer> collection) {
        if (byValue.computeIfAbsent(bucketOf(document), v -> new HashMap<>()).put(document.get("_id"), position) == null) count++;
    }

    @Override public Integer remove(Document document) {
        Object bucketKey = bucketOf(document);
        Map<Object, Integer> bucket = byValue.get(bucketKey);
        Integer position = bucket == null ? null : bucket.remove(document.get("_id"));
        if (position != null) {
            count--;
            if (bucket.isEmpty()) byValue.remove(bucketKey);
        }
        return position;
    }

    @Override public void checkUpdate(Document oldDocument, Document newDocument, MongoCollection<Integer> collection) {}

    @Override public void updateInPlace(Document oldDocument, Document newDocument, Integer position, MongoCollection<Integer> collection) {
        remove(oldDocument);
        add(newDocument, position, collection);
    }

    @Override public long getCount() { return count; }
    @Override public long getDataSize() { return 0; }
    @Override public void drop() { byValue.clear(); count = 0; multikey = false; }
    @Override public boolean isUnique() { return false; }
}

final class IndexedMemoryBackend extends MemoryBackend {
    /**
     * The memory backend changes a stored document in place on an update, and a reply is encoded
     * after handleCommand returns, from the stored documents themselves: an update of a document
     * while a reply holding it was being encoded made the encoder throw
     * (ConcurrentModificationException) and the client lose its connection (a CI run's API saw the
     * database "disconnected" for a moment). Commands that only read run side by side, any other runs
     * alone, and every reply is copied before the lock is let go.
     */
    private static final Set<String> READS = Set.of(
        "find", "getmore", "aggregate", "count", "distinct", "listcollections", "listindexes", "listdatabases",
        "hello", "ismaster", "ping", "buildinfo", "dbstats", "collstats", "serverstatus", "getparameter",
        "connectionstatus", "whatsmyuri", "getcmdlineopts", "hostinfo", "killcursors", "endsessions");
    private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();

    @Override public Document handleCommand(Channel channel, String databaseName, String command, Document query) {
        Lock held = READS.contains(command.toLowerCase(Locale.ROOT)) ? lock.readLock() : lock.writeLock();
        held.lock();
        try {
            return super.handleCommand(channel, databaseName, command, query).cloneDeeply();
        } finally {
            held.unlock();
        }
    }

    @Override public MemoryDatabase openOrCreateDatabase(String databaseName) {
        return new MemoryDatabase(databaseName, getCursorRegistry()) {
            @Override protected Index<Integer> openOrCreateUniqueIndex(String collection, String name, List<IndexKey> keys, boolean sparse) {
                return new SupersetIndex<>(super.openOrCreateUniqueIndex(collection, name, keys, sparse), name, keys, sparse);
            }

            @Override protected Index<Integer> openOrCreateSecondaryIndex(String collection, String name, List<IndexKey> keys, boolean sparse) {
                return FirstFieldIndex.serves(keys) ? new FirstFieldIndex(name, keys, sparse) : super.openOrCreateSecondaryIndex(collection, name, keys, sparse);
            }
        };
    }
}

public class MongoServerMain {
    /**
     * H2's store writes its changes to the file about once a second on its own, so a killed
     * server would lose the last second of acknowledged writes. Committing before each reply
     * means a SIGKILL loses nothing acknowledged (a commit without changes costs nothing).
     */
    static final class DurableH2Backend extends H2Backend {
        DurableH2Backend(String file) {
            super(file);
        }

        @Override
        protected MongoDatabase openOrCreateDatabase(String databaseName) {
            return new H2Database(databaseName, getMvStore(), getCursorRegistry()) {
                @Override
                protected Index<Object> openOrCreateUniqueIndex(String collection, String name, List<IndexKey> keys, boolean sparse) {
                    return new SupersetIndex<>(super.openOrCreateUniqueIndex(collection, name, keys, sparse), name, keys, sparse);
                }
            };
        }

        @Override
        public Document handleCommand(Channel channel, String databaseName, String command, Document query) {
            try {
                return super.handleCommand(channel, databaseName, command, query);
            } finally {
                commit();
            }
        }

        @Override
        public Document handleMessage(MongoMessage message) {
            try {
                return super.handleMessage(message);
            } finally {
                commit();
            }
        }
    }

    public static void main(String[] args) throws Exception {
        String host = args[0];
        int port = Integer.parseInt(args[1]);
        String file = args.length > 2 ? args[2] : "";
        AbstractMongoBackend backend = file.isEmpty() ? new IndexedMemoryBackend() : new DurableH2Backend(file);
        backend.version(ServerVersion.MONGO_5_0);
        MongoServer server = new MongoServer(backend);
        server.bind(new InetSocketAddress(host, port));
        System.out.println("mongo-java-server listening on " + host + ":" + port);
        Runtime.getRuntime().addShutdownHook(new Thread(server::shutdown));
        Thread.currentThread().join();
    }
}
