package io.ramjet.provider.jms.xa;

import com.arjuna.ats.arjuna.AtomicAction;
import com.arjuna.ats.arjuna.common.RecoveryEnvironmentBean;
import com.arjuna.ats.arjuna.common.Uid;
import com.arjuna.ats.arjuna.common.arjPropertyManager;
import com.arjuna.ats.arjuna.common.recoveryPropertyManager;
import com.arjuna.ats.arjuna.coordinator.TxControl;
import com.arjuna.ats.arjuna.objectstore.StoreManager;
import com.arjuna.ats.arjuna.recovery.ActionStatusService;
import com.arjuna.ats.arjuna.recovery.RecoveryManager;
import com.arjuna.ats.arjuna.recovery.TransactionStatusConnectionManager;
import com.arjuna.ats.arjuna.state.InputObjectState;
import com.arjuna.ats.internal.arjuna.common.UidHelper;
import com.arjuna.ats.internal.arjuna.recovery.AtomicActionRecoveryModule;
import com.arjuna.ats.internal.jta.recovery.arjunacore.RecoveryXids;
import com.arjuna.ats.internal.jta.recovery.arjunacore.XARecoveryModule;
import com.arjuna.ats.jta.common.JTAEnvironmentBean;
import com.arjuna.ats.jta.common.jtaPropertyManager;
import com.arjuna.ats.jta.recovery.XAResourceRecoveryHelper;
import jakarta.transaction.TransactionManager;
import java.io.IOException;
import java.lang.reflect.Field;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import javax.transaction.xa.XAResource;

/**
 * Narayana as transaction manager and, in the same JVM, as its own recovery manager (direct
 * management: a recovery scan runs when the test calls {@link #recover}, never in the
 * background), with its object store in a directory of the test.
 *
 * <p>Narayana's configuration, its stores and its recovery manager are JVM-wide, and parts of its
 * recovery keep what they found first in static fields (the recovery store, the XARecoveryModule
 * that XA records ask for resources, and a second recovery manager in one JVM hangs in its
 * terminate). So a JVM opens one NarayanaRecovery, for one test class: this points every object store at the directory and drops the stores Narayana had
 * open (another test class of the JVM may have used its own directory), and {@link #close} drops
 * them again, so the next user gets the directory it configures.
 */
final class NarayanaRecovery implements AutoCloseable {

    private final Path objectStore;
    private final TransactionManager transactionManager;
    private final RecoveryManager manager;
    private final XARecoveryModule xaModule;

    private NarayanaRecovery(Path objectStore, TransactionManager transactionManager, RecoveryManager manager,
                             XARecoveryModule xaModule) {
        this.objectStore = objectStore;
        this.transactionManager = transactionManager;
        this.manager = manager;
        this.xaModule = xaModule;
    }

    /** Narayana on {@code objectStore}, with a recovery manager that is not yet scanning. */
    static NarayanaRecovery start(Path objectStore) {
        // in-process recovery asks the coordinator directly; its status socket would only leave an entry in the store
        arjPropertyManager.getCoordinatorEnvironmentBean().setTransactionStatusManagerEnable(false);
        TransactionManager tm = NarayanaSupport.transactionManager(objectStore);
        reopenStores();
        RecoveryEnvironmentBean recovery = recoveryPropertyManager.getRecoveryEnvironmentBean();
        recovery.setRecoveryListener(false);
        recovery.setRecoveryBackoffPeriod(1);
        recovery.setRecoveryModuleClassNames(List.of(AtomicActionRecoveryModule.class.getName(),
                XARecoveryModule.class.getName()));
        recovery.setExpiryScannerClassNames(List.of());
        JTAEnvironmentBean jta = jtaPropertyManager.getJTAEnvironmentBean();
        jta.setXaRecoveryNodes(List.of(TxControl.getXANodeName()));
        jta.setOrphanSafetyInterval(0);
        RecoveryXids.setSafetyIntervalMillis(0);
        RecoveryManager manager = RecoveryManager.manager(RecoveryManager.DIRECT_MANAGEMENT);
        XARecoveryModule xa = manager.getModules().stream()
                .filter(XARecoveryModule.class::isInstance).map(XARecoveryModule.class::cast)
                .findFirst().orElseThrow(() -> new IllegalStateException("Narayana loaded no XARecoveryModule"));
        return new NarayanaRecovery(objectStore, tm, manager, xa);
    }

    TransactionManager transactionManager() {
        return transactionManager;
    }

    /**
     * One recovery scan (both passes of every module) with {@code resources} as the resource
     * manager Narayana asks for in-doubt Xids: the resources of the transactions its log says
     * committed get commit, prepared Xids of this node without a log get rollback.
     */
    void recover(Supplier<XAResource> resources) {
        XAResourceRecoveryHelper helper = new XAResourceRecoveryHelper() {
            @Override
            public boolean initialise(String p) {
                return true;
            }

            @Override
            public XAResource[] getXAResources() {
                return new XAResource[] {resources.get()};
            }
        };
        xaModule.addXAResourceRecoveryHelper(helper);
        try {
            manager.scan();
        } finally {
            xaModule.removeXAResourceRecoveryHelper(helper);
        }
    }

    /** The transactions Narayana's log still holds: those it has not finished. */
    List<Uid> unfinishedTransactions() throws Exception {
        InputObjectState uids = new InputObjectState();
        List<Uid> found = new ArrayList<>();
        if (!StoreManager.getRecoveryStore().allObjUids(new AtomicAction().type(), uids)) {
            throw new IllegalStateException("Narayana cannot list its object store " + objectStore);
        }
        while (true) {
            Uid uid = UidHelper.unpackFrom(uids);
            if (uid.equals(Uid.nullUid())) {
                return found;
            }
            found.add(uid);
        }
    }

    /** Stops the recovery manager, closes the object store and deletes its directory. */
    @Override
    public void close() throws IOException {
        terminateWithin(10_000);
        reopenStores();
        NarayanaSupport.delete(objectStore);
    }

    /**
     * Closes the object stores Narayana has open, so that its next use opens the configured
     * directory. Three classes of its recovery keep the recovery store in a static field, set
     * once; without forgetting them, a second object store in the JVM would be half used: its
     * transactions logged in the new directory, their status looked up in the old one.
     */
    private static void reopenStores() {
        StoreManager.shutdown();
        for (Class<?> holder : List.of(ActionStatusService.class, TransactionStatusConnectionManager.class,
                AtomicActionRecoveryModule.class)) {
            try {
                Field store = holder.getDeclaredField("_recoveryStore");
                store.setAccessible(true);
                store.set(null, null);
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException("cannot reset the recovery store Narayana keeps in " + holder, e);
            }
        }
    }

    /**
     * Narayana's terminate() can wait for ever on its periodic recovery (seen once in a JVM that
     * had used another recovery manager): a test must not hang the build on it, so it is given a
     * bounded time on a daemon thread and left behind after that.
     */
    private void terminateWithin(long millis) {
        Thread stopper = new Thread(manager::terminate, "narayana-recovery-terminate");
        stopper.setDaemon(true);
        stopper.start();
        try {
            stopper.join(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (stopper.isAlive()) {
            System.err.println("Narayana's recovery manager did not terminate within " + millis + " ms; left behind");
        }
    }
}
