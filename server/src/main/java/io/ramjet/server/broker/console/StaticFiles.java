package io.ramjet.server.broker.console;

import com.sun.net.httpserver.HttpExchange;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.Properties;

/**
 * The console's page and its files, from the class path: {@code /console/NAME} is the resource
 * {@code io/ramjet/server/broker/console/NAME} ({@code index.html} for the bare directory), and
 * {@code /console/lib/NAME} the file NAME of the uPlot WebJar's {@code dist} directory, whichever
 * version of it the class path holds. Only names of letters, digits, dots and dashes are served.
 */
final class StaticFiles {

    static final String PREFIX = "/console/";
    private static final String LIB = "lib/";
    private static final String OWN = "io/ramjet/server/broker/console/";
    private static final String UPLOT_POM = "META-INF/maven/org.webjars.npm/uplot/pom.properties";
    private static final Map<String, String> TYPES = Map.of(
            "html", "text/html; charset=utf-8",
            "js", "text/javascript; charset=utf-8",
            "css", "text/css; charset=utf-8",
            "png", "image/png");

    /** Where the chart library's files are, or null when its WebJar is not on the class path. */
    private final String uplotDist = uplotDist();

    void serve(HttpExchange exchange) throws IOException {
        String path = exchange.getRequestURI().getPath().substring(PREFIX.length());
        String name = path.isEmpty() ? "index.html" : path;
        String resource = resource(name);
        String type = TYPES.get(name.substring(name.lastIndexOf('.') + 1));
        try (InputStream in = resource == null || type == null ? null
                : StaticFiles.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                ApiCall.error(exchange, 404, "no such file: " + exchange.getRequestURI().getPath());
                return;
            }
            byte[] body = in.readAllBytes();
            exchange.getResponseHeaders().set("Content-Type", type);
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        }
    }

    /** The class path resource of a file name under {@code /console/}, or null for none. */
    private String resource(String name) {
        if (name.startsWith(LIB)) {
            String file = name.substring(LIB.length());
            return uplotDist == null || !plain(file) ? null : uplotDist + file;
        }
        return plain(name) ? OWN + name : null;
    }

    private static boolean plain(String name) {
        return name.matches("[A-Za-z0-9][A-Za-z0-9.-]*") && !name.contains("..");
    }

    private static String uplotDist() {
        try (InputStream in = StaticFiles.class.getClassLoader().getResourceAsStream(UPLOT_POM)) {
            if (in == null) {
                return null;
            }
            Properties pom = new Properties();
            pom.load(in);
            return "META-INF/resources/webjars/uplot/" + pom.getProperty("version") + "/dist/";
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + UPLOT_POM, e);
        }
    }
}
