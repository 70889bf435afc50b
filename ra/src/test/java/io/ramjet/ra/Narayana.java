package io.ramjet.ra;

import com.arjuna.ats.arjuna.common.CoreEnvironmentBean;
import com.arjuna.ats.arjuna.common.ObjectStoreEnvironmentBean;
import com.arjuna.common.internal.util.propertyservice.BeanPopulator;
import jakarta.transaction.TransactionManager;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** Narayana as the transaction manager of a test, its object store in a temporary directory. */
final class Narayana {

    private Narayana() {
    }

    /** Points every Narayana object store at {@code dir}; call before the first transaction. */
    static TransactionManager transactionManager(Path dir) {
        for (String store : new String[] {null, "communicationStore", "stateStore"}) {
            ObjectStoreEnvironmentBean bean = store == null
                    ? BeanPopulator.getDefaultInstance(ObjectStoreEnvironmentBean.class)
                    : BeanPopulator.getNamedInstance(ObjectStoreEnvironmentBean.class, store);
            bean.setObjectStoreDir(dir.toString());
        }
        try {
            BeanPopulator.getDefaultInstance(CoreEnvironmentBean.class).setNodeIdentifier("ramjet-test");
        } catch (Exception e) {
            throw new IllegalStateException("cannot set Narayana's node identifier", e);
        }
        return com.arjuna.ats.jta.TransactionManager.transactionManager();
    }

    /**
     * Deletes an object store now, and again when the JVM exits: Narayana's shutdown hook may
     * open a store still configured to drop its status manager's entry, recreating these empty
     * directories; the JVM deletes them after the shutdown hooks, innermost first.
     */
    static void delete(Path dir) throws IOException {
        Path at = dir;
        for (String name : new String[] {"ShadowNoFileLockStore", "defaultStore", "Recovery", "TransactionStatusManager"}) {
            at.toFile().deleteOnExit();
            at = at.resolve(name);
        }
        at.toFile().deleteOnExit();
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
