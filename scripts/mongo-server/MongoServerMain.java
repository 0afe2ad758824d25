import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.ServerVersion;
import de.bwaldvogel.mongo.backend.AbstractMongoBackend;
import de.bwaldvogel.mongo.backend.h2.H2Backend;
import de.bwaldvogel.mongo.backend.memory.MemoryBackend;
import java.net.InetSocketAddress;

/**
 * Serves the MongoDB wire protocol on this machine, where MongoDB itself cannot be installed.
 * Arguments: host port [h2-file]. Without a file the data lives in memory (tests).
 */
public class MongoServerMain {
    public static void main(String[] args) throws Exception {
        String host = args[0];
        int port = Integer.parseInt(args[1]);
        String file = args.length > 2 ? args[2] : "";
        AbstractMongoBackend backend = file.isEmpty() ? new MemoryBackend() : new H2Backend(file);
        backend.version(ServerVersion.MONGO_5_0);
        MongoServer server = new MongoServer(backend);
        server.bind(new InetSocketAddress(host, port));
        System.out.println("mongo-java-server listening on " + host + ":" + port);
        Runtime.getRuntime().addShutdownHook(new Thread(server::shutdown));
        Thread.currentThread().join();
    }
}
