import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.ServerVersion;
import de.bwaldvogel.mongo.backend.AbstractMongoBackend;
import de.bwaldvogel.mongo.backend.h2.H2Backend;
import de.bwaldvogel.mongo.backend.memory.MemoryBackend;
import de.bwaldvogel.mongo.bson.Document;
import de.bwaldvogel.mongo.wire.message.MongoMessage;
import io.netty.channel.Channel;
import java.net.InetSocketAddress;

/**
 * Serves the MongoDB wire protocol on this machine, where MongoDB itself cannot be installed.
 * Arguments: host port [h2-file]. Without a file the data lives in memory (tests).
 */
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
        AbstractMongoBackend backend = file.isEmpty() ? new MemoryBackend() : new DurableH2Backend(file);
        backend.version(ServerVersion.MONGO_5_0);
        MongoServer server = new MongoServer(backend);
        server.bind(new InetSocketAddress(host, port));
        System.out.println("mongo-java-server listening on " + host + ":" + port);
        Runtime.getRuntime().addShutdownHook(new Thread(server::shutdown));
        Thread.currentThread().join();
    }
}
