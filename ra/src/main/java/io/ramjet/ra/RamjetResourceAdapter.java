package io.ramjet.ra;

import jakarta.jms.JMSException;
import io.ramjet.provider.jms.XaResourceManager;
import jakarta.jms.XAConnection;
import jakarta.resource.ResourceException;
import jakarta.resource.spi.ActivationSpec;
import jakarta.resource.spi.BootstrapContext;
import jakarta.resource.spi.ResourceAdapter;
import jakarta.resource.spi.ResourceAdapterInternalException;
import jakarta.resource.spi.endpoint.MessageEndpointFactory;
import jakarta.resource.spi.work.WorkManager;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import javax.transaction.xa.XAResource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Ramjet's resource adapter: holds the default connection settings (its config properties; an
 * instance given no {@code connectionUrl} takes the settings of the adapter the administrator
 * configured in the same deployment, see {@link ConfiguredAdapters}, else {@link #LOCAL}), runs
 * one {@link EndpointActivation} per activated message endpoint, and hands the transaction
 * manager the XA resources it needs to recover prepared branches. Configured as a JavaBean by the
 * application server, which calls {@link #start} and {@link #stop} once each.
 */
public class RamjetResourceAdapter extends ConnectionProperties implements ResourceAdapter {

    private static final long serialVersionUID = 1L;
    /** Where an adapter that nobody configured connects: a server on this machine. */
    static final ConnectionSettings LOCAL = new ConnectionSettings("ramjet://127.0.0.1:9876", null, null);

    private transient WorkManager workManager;
    private final transient Map<ActivationKey, EndpointActivation> activations = new ConcurrentHashMap<>();
    private final transient List<XAConnection> recoveryConnections = new ArrayList<>();
    private final transient Map<ConnectionSettings, Reachability> reachability = new ConcurrentHashMap<>();
    private final transient Map<String, XaResourceManager> resourceManagers = new ConcurrentHashMap<>();

    /** The settings a connection factory or activation falls back to. */
    ConnectionSettings defaults() {
        return ownSettings().orElse(ConfiguredAdapters.first().orElse(LOCAL)).orElse(LOCAL);
    }

    /**
     * The one XA resource manager of this adapter's connections to the cluster of {@code settings}:
     * the MDB sessions and pooled connections of one user are one resource manager, so that a
     * consume-and-send transaction commits in one phase.
     */
    XaResourceManager resourceManager(ConnectionSettings settings) {
        return resourceManagers.computeIfAbsent(settings.url(), XaResourceManager::new);
    }

    @Override
    public void start(BootstrapContext context) {
        workManager = context.getWorkManager();
        ConfiguredAdapters.started(this);
    }

    @Override
    public void stop() {
        ConfiguredAdapters.stopped(this);
        activations.values().forEach(EndpointActivation::stop);
        activations.clear();
        synchronized (recoveryConnections) {
            recoveryConnections.forEach(RamjetResourceAdapter::closeQuietly);
            recoveryConnections.clear();
        }
        Log.LOG.info("Ramjet resource adapter stopped");
    }

    @Override
    public void endpointActivation(MessageEndpointFactory factory, ActivationSpec spec) throws ResourceException {
        RamjetActivationSpec activationSpec = (RamjetActivationSpec) spec;
        activationSpec.validate();
        ConnectionSettings settings = activationSpec.ownSettings().orElse(defaults());
        EndpointActivation activation = new EndpointActivation(factory, activationSpec, settings,
                reachability.computeIfAbsent(settings, Reachability::new), resourceManager(settings), workManager);
        activations.put(new ActivationKey(factory, spec), activation);
        activation.start();
    }

    @Override
    public void endpointDeactivation(MessageEndpointFactory factory, ActivationSpec spec) {
        EndpointActivation activation = activations.remove(new ActivationKey(factory, spec));
        if (activation != null) {
            activation.stop();
        }
    }

    /**
     * One XA resource per distinct connection setting of the given activations, each on a
     * connection of its own kept open until {@link #stop}, so the transaction manager can list
     * and complete the branches prepared before a crash.
     */
    @Override
    public XAResource[] getXAResources(ActivationSpec[] specs) throws ResourceException {
        Set<ConnectionSettings> settings = new LinkedHashSet<>();
        for (ActivationSpec spec : specs) {
            if (spec instanceof RamjetActivationSpec s) {
                settings.add(s.ownSettings().orElse(defaults()));
            }
        }
        List<XAResource> resources = new ArrayList<>();
        for (ConnectionSettings s : settings) {
            try {
                XAConnection connection = s.openXA();
                synchronized (recoveryConnections) {
                    recoveryConnections.add(connection);
                }
                resources.add(connection.createXASession().getXAResource());
            } catch (JMSException e) {
                throw new ResourceAdapterInternalException("cannot connect to " + s + " for recovery", e);
            }
        }
        return resources.toArray(new XAResource[0]);
    }

    static void closeQuietly(AutoCloseable closeable) {
        try {
            closeable.close();
        } catch (Exception e) {
            Log.LOG.debug("closing {} failed", closeable, e);
        }
    }

    /**
     * The adapter's logger, made on first use: GlassFish-based servers (Payara) clear the static
     * fields of the classes a resource adapter initialized while it was deployed, SLF4J's
     * included, so nothing may touch SLF4J before deployment ends ({@link #start} runs during it).
     */
    private static final class Log {
        static final Logger LOG = LoggerFactory.getLogger(RamjetResourceAdapter.class);
    }

    /** An activation is named by its factory and spec instances, whatever their equals say. */
    private record ActivationKey(MessageEndpointFactory factory, ActivationSpec spec) {
        @Override
        public boolean equals(Object o) {
            return o instanceof ActivationKey k && k.factory == factory && k.spec == spec;
        }

        @Override
        public int hashCode() {
            return System.identityHashCode(factory) * 31 + System.identityHashCode(spec);
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RamjetResourceAdapter r && r.ownSettings().equals(ownSettings());
    }

    @Override
    public int hashCode() {
        return ownSettings().hashCode();
    }
}
