package io.ramjet.cli;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code --timeout} bounds every command, admin-protocol and JMS alike: against a NameServer that
 * accepts connections and never answers, each command gives up after the timeout asked for, not
 * after the JMS client's default 5 s, and says so.
 */
class TimeoutTest {

    private static final long TIMEOUT_MILLIS = 1_500;

    private static ServerSocket silent;
    private static final List<Socket> accepted = new CopyOnWriteArrayList<>();

    @BeforeAll
    static void silentNameServer() throws IOException {
        silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(() -> {
            try {
                while (true) {
                    accepted.add(silent.accept());
                }
            } catch (IOException closed) {
                // the test is over
            }
        }, "silent-nameserver");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    @AfterAll
    static void close() throws IOException {
        silent.close();
        for (Socket socket : accepted) {
            socket.close();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"queue stat", "broker", "producer -d orders", "consumer -d orders", "browse -q orders",
            "perf -n 1"})
    void aCommandGivesUpAfterTheTimeoutAskedFor(String command) {
        String url = "ramjet://127.0.0.1:" + silent.getLocalPort();
        String[] args = (command + " --url " + url + " --timeout " + TIMEOUT_MILLIS).split(" ");
        StringWriter err = new StringWriter();
        long begin = System.nanoTime();
        int exit = RamjetAdmin.run(new PrintWriter(new StringWriter()), new PrintWriter(err), args);
        long millis = (System.nanoTime() - begin) / 1_000_000;
        assertEquals(1, exit, err.toString());
        // the message names the timeout the request waited for; the time taken only bounds it below, since
        // starting and closing the client add a load-dependent amount
        assertTrue(err.toString().contains("within " + TIMEOUT_MILLIS + " ms"), err.toString());
        assertTrue(millis >= TIMEOUT_MILLIS, command + " gave up after " + millis + " ms: " + err);
    }
}
