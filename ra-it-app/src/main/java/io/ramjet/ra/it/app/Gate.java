package io.ramjet.ra.it.app;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import javax.transaction.xa.XAException;
import javax.transaction.xa.XAResource;
import javax.transaction.xa.Xid;

/**
 * A third participant of a transaction that holds it between prepare and commit: enlisted last,
 * so it is prepared after the Ramjet branches, its {@code prepare} writes {@code prepared} into its
 * directory and waits (up to two minutes) for a {@code release} file there, which the test
 * creates after it killed and restarted the broker. {@code commit} and {@code rollback} write
 * the outcome into the directory.
 */
final class Gate implements XAResource {

    private final Path dir;

    Gate(Path dir) {
        this.dir = dir;
    }

    @Override
    public int prepare(Xid xid) throws XAException {
        touch("prepared");
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
        while (!Files.exists(dir.resolve("release")) && System.nanoTime() < deadline) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100));
        }
        return XA_OK;
    }

    @Override
    public void commit(Xid xid, boolean onePhase) {
        touch("committed");
    }

    @Override
    public void rollback(Xid xid) {
        touch("rolled-back");
    }

    private void touch(String name) {
        try {
            Files.writeString(dir.resolve(name), name);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void start(Xid xid, int flags) {
    }

    @Override
    public void end(Xid xid, int flags) {
    }

    @Override
    public void forget(Xid xid) {
    }

    @Override
    public Xid[] recover(int flag) {
        return new Xid[0];
    }

    @Override
    public boolean isSameRM(XAResource other) {
        return other == this;
    }

    @Override
    public int getTransactionTimeout() {
        return 0;
    }

    @Override
    public boolean setTransactionTimeout(int seconds) {
        return false;
    }
}
