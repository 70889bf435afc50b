package io.ramjet.provider.jms;

import io.ramjet.provider.jms.transaction.TransactionLedger;
import io.ramjet.provider.jms.transaction.XaBranches;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One XA resource manager for the connections to one Ramjet cluster opened with it
 * ({@link RamjetXAConnectionFactory#createXAConnection(String, String, XaResourceManager)}). The
 * XAResources of its connections that signed on as the same user share their branches:
 * {@code isSameRM} is true between them, and a branch started on one connection may be joined
 * ({@code TMJOIN}) by a session of another and completed through any of them, so a transaction
 * manager commits a transaction that touched only them in one phase. The brokers take the work
 * of every connection of a branch's user as the branch's; connections of other users never share
 * a branch (an XA branch belongs to its user, at the brokers as here). A connection opened
 * without one is a resource manager of its own. Thread-safe.
 */
public final class XaResourceManager {

    private final String url;
    private final Map<String, XaBranches> byUser = new ConcurrentHashMap<>();

    /** @param url the {@code ramjet://} URL of the cluster: only connections to it may be opened with this */
    public XaResourceManager(String url) {
        this.url = Objects.requireNonNull(url, "url");
    }

    String url() {
        return url;
    }

    /** The branches of {@code user}'s connections ({@code ""}: anonymous ones), made with the first connection's settings. */
    XaBranches branchesOf(String user, int sendsInFlight) {
        return byUser.computeIfAbsent(user, u -> new XaBranches(
                new TransactionLedger(TransactionLedger.DEFAULT_CAPACITY), sendsInFlight));
    }

    @Override
    public String toString() {
        return "XaResourceManager[" + url + "]";
    }
}
