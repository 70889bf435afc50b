package io.ramjet.server.config;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Set;

/** Which address a server announces for the address it binds. */
public final class Hosts {

    private static final Logger LOG = LoggerFactory.getLogger(Hosts.class);
    private static final Set<String> WILDCARDS = Set.of("", "0.0.0.0", "::", "[::]", "0:0:0:0:0:0:0:0");

    private Hosts() {
    }

    /**
     * The explicit address if there is one; else the bind host unless it is a wildcard (which no
     * client can connect to), else this machine's canonical host name.
     */
    public static String advertised(String bindHost, String explicit) {
        if (explicit != null && !explicit.isBlank()) {
            return explicit.trim();
        }
        if (!isWildcard(bindHost)) {
            return bindHost;
        }
        try {
            return InetAddress.getLocalHost().getCanonicalHostName();
        } catch (UnknownHostException e) {
            String loopback = InetAddress.getLoopbackAddress().getHostAddress();
            LOG.warn("bound to {} but this machine's host name does not resolve ({}); announcing {}: set the"
                    + " advertised host", bindHost, e.getMessage(), loopback);
            return loopback;
        }
    }

    public static boolean isWildcard(String host) {
        return WILDCARDS.contains(host.trim());
    }
}
