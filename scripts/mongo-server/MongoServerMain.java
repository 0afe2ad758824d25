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
import de.bwaldvogel.mongo.exception.KeyConstraintError;
import de.bwaldvogel.mongo.wire.message.MongoMessage;
import io.netty.channel.Channel;
import java.net.InetSocketAddress;
import java.util.Collection;
import java.util.List;
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
     * The query's conditions on this index's fields, or null (read every document, as before) unless
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

final class IndexedMemoryBackend extends MemoryBackend {
    @Override public MemoryDatabase openOrCreateDatabase(String databaseName) {
        return new MemoryDatabase(databaseName, getCursorRegistry()) {
            @Override protected Index<Integer> openOrCreateUniqueIndex(String collection, String name, List<IndexKey> keys, boolean sparse) {
                return new SupersetIndex<>(super.openOrCreateUniqueIndex(collection, name, keys, sparse), name, keys, sparse);
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
