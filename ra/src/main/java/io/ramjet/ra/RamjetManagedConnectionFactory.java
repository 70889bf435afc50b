package io.ramjet.ra;

import io.ramjet.provider.jms.XaResourceManager;
import jakarta.resource.ResourceException;
import jakarta.resource.spi.ConnectionManager;
import jakarta.resource.spi.ConnectionRequestInfo;
import jakarta.resource.spi.ManagedConnection;
import jakarta.resource.spi.ManagedConnectionFactory;
import jakarta.resource.spi.ResourceAdapter;
import jakarta.resource.spi.ResourceAdapterAssociation;
import jakarta.resource.spi.ValidatingManagedConnectionFactory;
import jakarta.resource.spi.security.PasswordCredential;
import java.io.PrintWriter;
import java.util.HashSet;
import java.util.Objects;
import java.util.Set;
import javax.security.auth.Subject;

/**
 * The outbound side: makes pooled physical connections ({@link RamjetManagedConnection}) and the
 * application's connection factory ({@link RamjetPooledConnectionFactory}) over a connection
 * manager. Its config properties ({@code connectionUrl}, {@code userName}, {@code password},
 * {@code clientId}) default to the resource adapter's where unset. Equality is by configuration,
 * as Jakarta Connectors requires.
 */
public class RamjetManagedConnectionFactory extends ConnectionProperties implements ManagedConnectionFactory, ResourceAdapterAssociation,
        ValidatingManagedConnectionFactory {

    private static final long serialVersionUID = 1L;

    private transient ResourceAdapter resourceAdapter;
    private transient PrintWriter logWriter;
    private String clientId;

    ConnectionSettings settings() {
        ConnectionSettings own = ownSettings();
        return resourceAdapter instanceof RamjetResourceAdapter ra ? own.orElse(ra.defaults()) : own;
    }

    /** The settings of a physical connection for the user an application asked for. */
    ConnectionSettings settings(ConnectionRequestInfo info) {
        ConnectionSettings settings = settings();
        if (info instanceof RequestCredentials c && c.userName() != null) {
            return new ConnectionSettings(settings.url(), c.userName(), c.password());
        }
        return settings;
    }

    /** The adapter's resource manager for {@code settings}, or null outside an adapter (a resource manager per connection). */
    XaResourceManager resourceManager(ConnectionSettings settings) {
        return resourceAdapter instanceof RamjetResourceAdapter ra ? ra.resourceManager(settings) : null;
    }

    @Override
    public Object createConnectionFactory(ConnectionManager manager) {
        return new RamjetPooledConnectionFactory(this, manager);
    }

    @Override
    public Object createConnectionFactory() throws ResourceException {
        throw new jakarta.resource.NotSupportedException("Ramjet's adapter runs inside an application server only");
    }

    /**
     * A physical connection as the user the application asked for, else as the user of a
     * password credential for this factory in {@code subject} (what the container passes for
     * container-managed sign-on and for XA recovery with recovery credentials; one without a user
     * name counts as none), else as the factory's own user.
     */
    @Override
    public ManagedConnection createManagedConnection(Subject subject, ConnectionRequestInfo info)
            throws ResourceException {
        return RamjetManagedConnection.open(this, credentials(subject, info));
    }

    private RequestCredentials credentials(Subject subject, ConnectionRequestInfo info) {
        if (info instanceof RequestCredentials c && c.userName() != null) {
            return c;
        }
        if (subject != null) {
            for (PasswordCredential p : subject.getPrivateCredentials(PasswordCredential.class)) {
                boolean named = p.getUserName() != null && !p.getUserName().isBlank();
                if (named && (p.getManagedConnectionFactory() == null || equals(p.getManagedConnectionFactory()))) {
                    return new RequestCredentials(p.getUserName(),
                            p.getPassword() == null ? null : new String(p.getPassword()));
                }
            }
        }
        return RequestCredentials.FACTORY_DEFAULT;
    }

    @Override
    @SuppressWarnings("rawtypes")
    public ManagedConnection matchManagedConnections(Set candidates, Subject subject, ConnectionRequestInfo info) {
        RequestCredentials wanted = credentials(subject, info);
        for (Object candidate : candidates) {
            if (candidate instanceof RamjetManagedConnection mc && mc.factory() == this
                    && mc.credentials().equals(wanted) && mc.isUsable()) {
                return mc;
            }
        }
        return null;
    }

    @Override
    @SuppressWarnings({"rawtypes", "unchecked"})
    public Set getInvalidConnections(Set connections) {
        Set invalid = new HashSet<>();
        for (Object candidate : connections) {
            if (candidate instanceof RamjetManagedConnection mc && !mc.isUsable()) {
                invalid.add(mc);
            }
        }
        return invalid;
    }

    @Override
    public void setLogWriter(PrintWriter out) {
        this.logWriter = out;
    }

    @Override
    public PrintWriter getLogWriter() {
        return logWriter;
    }

    @Override
    public ResourceAdapter getResourceAdapter() {
        return resourceAdapter;
    }

    @Override
    public void setResourceAdapter(ResourceAdapter resourceAdapter) {
        this.resourceAdapter = resourceAdapter;
    }

    public String getClientId() {
        return clientId;
    }

    public void setClientId(String clientId) {
        this.clientId = clientId;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RamjetManagedConnectionFactory f && f.getClass() == getClass()
                && f.ownSettings().equals(ownSettings()) && Objects.equals(f.clientId, clientId)
                && f.resourceAdapter == resourceAdapter;
    }

    @Override
    public int hashCode() {
        return Objects.hash(ownSettings(), clientId);
    }
}
