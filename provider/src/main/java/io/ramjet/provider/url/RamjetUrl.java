package io.ramjet.provider.url;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A parsed {@code ramjet://host:port[,host:port...][?key=value&...]} address: the NameServers a
 * client asks for routes, and options. A port may be left out (9876). {@code ramjets://} is the
 * same with TLS on every connection. Immutable.
 *
 * <p>Parsing refuses anything else with an {@link IllegalArgumentException} that names the
 * problem; the factory turns it into a {@code JMSException}.
 */
public record RamjetUrl(String scheme, List<String> nameServers, Map<String, String> options) {

    /** The scheme's name, which picks the client implementation. */
    public static final String SCHEME_NAME = "ramjet";
    public static final String SCHEME = SCHEME_NAME + "://";
    /** The scheme of connections with TLS. */
    public static final String TLS_SCHEME_NAME = "ramjets";
    public static final String TLS_SCHEME = TLS_SCHEME_NAME + "://";
    public static final int DEFAULT_PORT = 9876;

    public RamjetUrl {
        if (!SCHEME_NAME.equals(scheme) && !TLS_SCHEME_NAME.equals(scheme)) {
            throw new IllegalArgumentException("not a Ramjet URL scheme: " + scheme);
        }
        nameServers = List.copyOf(nameServers);
        options = Collections.unmodifiableMap(new LinkedHashMap<>(options));
    }

    public static RamjetUrl parse(String url) {
        String scheme;
        if (url != null && url.regionMatches(true, 0, SCHEME, 0, SCHEME.length())) {
            scheme = SCHEME_NAME;
        } else if (url != null && url.regionMatches(true, 0, TLS_SCHEME, 0, TLS_SCHEME.length())) {
            scheme = TLS_SCHEME_NAME;
        } else {
            throw new IllegalArgumentException("a Ramjet URL starts with " + SCHEME + " or " + TLS_SCHEME + ": " + url);
        }
        String rest = url.substring(scheme.length() + "://".length());
        int q = rest.indexOf('?');
        String hosts = q < 0 ? rest : rest.substring(0, q);
        String query = q < 0 ? "" : rest.substring(q + 1);
        if (hosts.endsWith("/")) {
            hosts = hosts.substring(0, hosts.length() - 1);
        }
        List<String> servers = new ArrayList<>();
        for (String h : hosts.split(",", -1)) {
            servers.add(hostPort(h.trim(), url));
        }
        Map<String, String> options = new LinkedHashMap<>();
        if (!query.isEmpty()) {
            for (String pair : query.split("&")) {
                int eq = pair.indexOf('=');
                if (eq <= 0) {
                    throw new IllegalArgumentException("option '" + pair + "' is not key=value in " + url);
                }
                options.put(decode(pair.substring(0, eq)), decode(pair.substring(eq + 1)));
            }
        }
        return new RamjetUrl(scheme, servers, options);
    }

    /** The URL this value parses from, NameServers and options in order. */
    @Override
    public String toString() {
        StringBuilder b = new StringBuilder(scheme).append("://").append(String.join(",", nameServers));
        String sep = "?";
        for (Map.Entry<String, String> e : options.entrySet()) {
            b.append(sep).append(e.getKey()).append('=').append(e.getValue());
            sep = "&";
        }
        return b.toString();
    }

    /** Whether the scheme asks for TLS ({@code ramjets://}). */
    public boolean isTlsScheme() {
        return TLS_SCHEME_NAME.equals(scheme);
    }

    private static String hostPort(String h, String url) {
        if (h.isEmpty()) {
            throw new IllegalArgumentException("empty host in " + url);
        }
        int colon = h.lastIndexOf(':');
        if (colon < 0) {
            return h + ":" + DEFAULT_PORT;
        }
        String host = h.substring(0, colon);
        if (host.isEmpty()) {
            throw new IllegalArgumentException("empty host in " + url);
        }
        int port;
        try {
            port = Integer.parseInt(h.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("port of '" + h + "' is not a number in " + url);
        }
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("port of '" + h + "' is out of range in " + url);
        }
        return host + ":" + port;
    }

    private static String decode(String s) {
        return URLDecoder.decode(s, StandardCharsets.UTF_8);
    }
}
