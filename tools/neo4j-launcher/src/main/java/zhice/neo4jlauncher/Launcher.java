package zhice.neo4jlauncher;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;

import org.neo4j.configuration.GraphDatabaseSettings;
import org.neo4j.configuration.connectors.BoltConnector;
import org.neo4j.configuration.connectors.HttpConnector;
import org.neo4j.configuration.helpers.SocketAddress;
import org.neo4j.harness.Neo4j;
import org.neo4j.harness.Neo4jBuilders;

/**
 * Starts an in-process Neo4j 5 server for tests: Bolt on a free loopback port, auth disabled,
 * HTTP off. Prints "BOLT_URI=bolt://127.0.0.1:PORT" on stdout once it accepts connections, then
 * waits until stdin closes (default) or, with --no-stdin, until SIGTERM/SIGINT. Either way the
 * server is shut down cleanly before the JVM exits.
 *
 * Options: --data DIR (working directory for the store; default: a fresh temp directory)
 *          --no-stdin (ignore stdin; for background use by shell scripts)
 */
public final class Launcher {

    public static void main(String[] args) throws Exception {
        Path dataDir = null;
        boolean ownDir = false;
        boolean watchStdin = true;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--data" -> dataDir = Path.of(args[++i]);
                case "--no-stdin" -> watchStdin = false;
                default -> {
                    System.err.println("unknown argument: " + args[i]);
                    System.exit(2);
                }
            }
        }
        if (dataDir == null) {
            dataDir = Files.createTempDirectory("zhice-neo4j-");
            ownDir = true;
        } else {
            Files.createDirectories(dataDir);
        }

        long t0 = System.nanoTime();
        Neo4j neo4j = Neo4jBuilders.newInProcessBuilder(dataDir)
                .withDisabledServer()
                .withConfig(BoltConnector.enabled, true)
                .withConfig(BoltConnector.listen_address, new SocketAddress("127.0.0.1", 0))
                .withConfig(HttpConnector.enabled, false)
                .withConfig(GraphDatabaseSettings.pagecache_memory, 64L * 1024 * 1024)
                .build();

        CountDownLatch stop = new CountDownLatch(1);
        final Path storeDir = dataDir;
        final boolean removeDir = ownDir;
        Thread hook = new Thread(() -> {
            stop.countDown();
            neo4j.close();
            if (removeDir) {
                deleteTree(storeDir);
            }
        }, "neo4j-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);

        URI bolt = neo4j.boltURI();
        String uri = "bolt://127.0.0.1:" + bolt.getPort();
        System.err.printf("neo4j-launcher: started in %.1f s, store at %s%n",
                (System.nanoTime() - t0) / 1e9, dataDir);
        System.out.println("BOLT_URI=" + uri);
        System.out.flush();

        if (watchStdin) {
            Thread watcher = new Thread(() -> {
                InputStream in = System.in;
                byte[] buf = new byte[256];
                try {
                    while (in.read(buf) >= 0) {
                        // keep draining until EOF
                    }
                } catch (IOException ignored) {
                    // treat a broken stdin as closed
                }
                stop.countDown();
            }, "stdin-watcher");
            watcher.setDaemon(true);
            watcher.start();
        }
        stop.await();
        System.err.println("neo4j-launcher: stopping");
        // System.exit runs the shutdown hook, which closes the server.
        System.exit(0);
    }

    private static void deleteTree(Path root) {
        try (var paths = Files.walk(root)) {
            paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException ignored) {
                    // best effort: a temp directory
                }
            });
        } catch (IOException ignored) {
            // already gone
        }
    }

    private Launcher() {
    }
}
