package io.ramjet.protocol.frame;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Logs what a server refuses to a remote address once, not once per frame or connection: the
 * first refusal of an address is a warning, the next ones within {@link #QUIET_MILLIS} only
 * counted and told with the next warning. Remembers at most {@link #ADDRESSES} addresses (the
 * oldest forgotten first), so a flood from many addresses holds bounded memory. Thread-safe.
 */
public final class RefusalLog {

    static final long QUIET_MILLIS = 60_000;
    static final int ADDRESSES = 4096;

    private final Logger log;
    private final Map<String, long[]> lastByHost = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, long[]> eldest) {
            return size() > ADDRESSES;
        }
    };

    /** @param role what refuses ("broker", "NameServer"), named in each line */
    public RefusalLog(String role) {
        this.log = LoggerFactory.getLogger(RefusalLog.class.getName() + "." + role);
    }

    /** The host of a remote address, without the port. */
    public static String host(SocketAddress address) {
        return address instanceof InetSocketAddress inet ? inet.getHostString() : String.valueOf(address);
    }

    /** {@code address} was refused {@code what}. */
    public void refused(SocketAddress address, String what) {
        String host = host(address);
        long now = System.currentTimeMillis();
        long suppressed;
        synchronized (lastByHost) {
            long[] last = lastByHost.get(host);
            if (last != null && now - last[0] < QUIET_MILLIS) {
                last[1]++;
                return;
            }
            suppressed = last == null ? 0 : last[1];
            lastByHost.put(host, new long[] {now, 0});
        }
        log.warn("refused {}: {}{}", host, what, suppressed == 0 ? ""
                : " (and " + suppressed + " more refusals of it since the last warning)");
    }
}
