package io.ramjet.provider.client;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;

/**
 * One INFO line when an outage of something the client keeps asking begins (a destination's route,
 * the transactions' coordinators), and one when it answers again, however many requests meet the
 * outage in between: an application that keeps sending through a broker's restart reads two
 * lines, not one per request or per attempt. The requests in between log at DEBUG. An outage is
 * named by its subject; they are independent of each other. Thread-safe.
 */
final class OutageLog {

    private final Logger log;
    /** The subjects out now, each with the {@link System#nanoTime()} its outage began. */
    private final Map<String, Long> outSince = new ConcurrentHashMap<>();

    OutageLog(Logger log) {
        this.log = log;
    }

    /**
     * A request about {@code subject} went unanswered: logs the line at INFO when this begins the
     * subject's outage, at DEBUG while it lasts.
     */
    void unanswered(String subject, String format, Object... arguments) {
        if (outSince.putIfAbsent(subject, System.nanoTime()) == null) {
            log.info(format, arguments);
        } else if (log.isDebugEnabled()) {
            log.debug(format, arguments);
        }
    }

    /** Whether any subject is out now: lets a caller skip naming its subject on the common path. */
    boolean anyOut() {
        return !outSince.isEmpty();
    }

    /** A request about {@code subject} was answered: ends its outage, if one was logged, with one line. */
    void answered(String subject) {
        if (outSince.isEmpty()) {
            return;
        }
        Long since = outSince.remove(subject);
        if (since != null) {
            log.info("{}: answered again, after {} ms of outage", subject,
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - since));
        }
    }
}
