package io.ramjet.server.broker.replication;

import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * Where a master's in-sync set is made durable before it is relied on. {@link InSyncReplicas}
 * calls it on every change of the set, in the order of the changes, and answers SYNC appends
 * without a slave that left only once the call has completed: an election then picks only among
 * slaves that hold every acknowledged write. Calls come one at a time (the next once the previous
 * completed), from the thread that saw the change; an implementation should not block that
 * thread, and may complete the future on another.
 */
public interface InSyncSetCommit {

    /** No one to tell: the set as the master sees it is the set (roles set by configuration). */
    InSyncSetCommit LOCAL = slaves -> CompletableFuture.completedFuture(null);

    /** Commits {@code slaves} (the master not included) as the group's in-sync set; fails if it could not. */
    CompletableFuture<Void> commit(Set<Long> slaves);
}
