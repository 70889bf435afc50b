package io.ramjet.ra.it;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.locks.LockSupport;

/**
 * An application server child process serving ra-it-app on a loopback HTTP port, as the
 * scenarios see it: requests to the application, and the log records and thread stacks a failure
 * message names. Each server says which of its threads and log records concern the adapter.
 */
abstract class AppServer implements AutoCloseable {

    private final LoggedProcess process;
    private final int httpPort;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    AppServer(LoggedProcess process, int httpPort) {
        this.process = process;
        this.httpPort = httpPort;
    }

    /** The server's name and version, for printed figures. */
    abstract String name();

    /** The stacks of the server's threads that are in Ramjet's code now, for a message left in doubt. */
    abstract String ramjetStacks();

    /** What the adapter's XA resources and the transaction manager logged, for a message left in doubt. */
    abstract String xaRecords();

    LoggedProcess process() {
        return process;
    }

    /** Returns once {@code readyPath} answers 200; throws with the log tail when the process ends or the wait times out. */
    void awaitReady(String readyPath, Duration timeout) throws IOException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            process.checkAlive(name());
            try {
                if (get(readyPath).statusCode() == 200) {
                    return;
                }
            } catch (IOException e) {
                // not listening yet
            }
            if (System.nanoTime() > deadline) {
                throw new IOException(name() + " did not serve " + readyPath + " within " + timeout + ":\n"
                        + process.tail(60));
            }
            LockSupport.parkNanos(250_000_000L);
        }
    }

    HttpResponse<String> get(String path) throws IOException {
        return send(HttpRequest.newBuilder(uri(path)).GET());
    }

    HttpResponse<String> post(String path) throws IOException {
        return send(HttpRequest.newBuilder(uri(path)).POST(HttpRequest.BodyPublishers.noBody()));
    }

    private HttpResponse<String> send(HttpRequest.Builder request) throws IOException {
        try {
            return http.send(request.timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
    }

    private URI uri(String path) {
        return URI.create("http://127.0.0.1:" + httpPort + path);
    }

    String logTail() {
        return process.tail(80);
    }

    @Override
    public void close() throws InterruptedException {
        process.end(false, 20);
    }
}
