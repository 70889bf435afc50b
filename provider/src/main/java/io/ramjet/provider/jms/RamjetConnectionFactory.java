package io.ramjet.provider.jms;

import io.ramjet.provider.client.ConnectionInfo;
import io.ramjet.provider.client.Credentials;
import io.ramjet.provider.jndi.RamjetObjectFactory;
import io.ramjet.provider.message.SerializationAllowList;
import io.ramjet.provider.url.RamjetUrl;
import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSException;
import jakarta.jms.QueueConnection;
import jakarta.jms.QueueConnectionFactory;
import jakarta.jms.TopicConnection;
import jakarta.jms.TopicConnectionFactory;
import java.io.Serializable;
import java.time.Duration;
import java.util.Objects;
import java.util.UUID;
import java.util.function.Function;
import javax.naming.Reference;
import javax.naming.Referenceable;
import javax.naming.StringRefAddr;

/**
 * The entry point: a factory of connections to the NameServers of a {@code ramjet://} URL.
 * URL options: {@code clientId}, {@code requestTimeout} (ms). Setters override them.
 * Serializable and Referenceable, so that any JNDI tree can hold it.
 */
public class RamjetConnectionFactory implements ConnectionFactory, QueueConnectionFactory, TopicConnectionFactory,
        Serializable, Referenceable {

    private static final long serialVersionUID = 1L;

    private String url;
    private String clientId;
    private long requestTimeoutMillis = 5_000;

    public RamjetConnectionFactory() {
        this("ramjet://localhost:" + RamjetUrl.DEFAULT_PORT);
    }

    public RamjetConnectionFactory(String url) {
        setUrl(url);
    }

    public String getUrl() {
        return url;
    }

    /** @throws IllegalArgumentException when the URL is not a valid {@code ramjet://} URL */
    public void setUrl(String url) {
        RamjetUrl parsed = RamjetUrl.parse(url);
        this.url = url;
        String id = parsed.options().get("clientId");
        if (id != null) {
            clientId = id;
        }
        String timeout = parsed.options().get("requestTimeout");
        if (timeout != null) {
            setRequestTimeoutMillis(Long.parseLong(timeout));
        }
    }

    public String getClientId() {
        return clientId;
    }

    /** The client id every connection of this factory gets (administratively configured). */
    public void setClientId(String clientId) {
        this.clientId = clientId;
    }

    public long getRequestTimeoutMillis() {
        return requestTimeoutMillis;
    }

    public void setRequestTimeoutMillis(long millis) {
        if (millis <= 0) {
            throw new IllegalArgumentException("requestTimeout must be positive: " + millis);
        }
        this.requestTimeoutMillis = millis;
    }

    @Override
    public Connection createConnection() throws JMSException {
        return createConnection(null, null);
    }

    @Override
    public Connection createConnection(String userName, String password) throws JMSException {
        return open(userName, password);
    }

    @Override
    public QueueConnection createQueueConnection() throws JMSException {
        return open(null, null);
    }

    @Override
    public QueueConnection createQueueConnection(String userName, String password) throws JMSException {
        return open(userName, password);
    }

    @Override
    public TopicConnection createTopicConnection() throws JMSException {
        return open(null, null);
    }

    @Override
    public TopicConnection createTopicConnection(String userName, String password) throws JMSException {
        return open(userName, password);
    }

    private RamjetConnection open(String user, String password) throws JMSException {
        return open(user, password, RamjetConnection::new);
    }

    /**
     * A new connection made by {@code create}, with this factory's settings and client id. With a
     * user name it is authenticated on every live master first, and a refusal closes it and
     * throws {@link jakarta.jms.JMSSecurityException}; without one it is anonymous.
     */
    <C extends RamjetConnection> C open(String user, String password, Function<ConnectionInfo, C> create)
            throws JMSException {
        ConnectionInfo info = new ConnectionInfo(UUID.randomUUID().toString(), RamjetUrl.parse(url).nameServers(),
                null, Credentials.of(user, password), Duration.ofMillis(requestTimeoutMillis),
                SerializationAllowList.fromSystemProperties());
        C connection = create.apply(info);
        if (info.credentials() != null) {
            connection.authenticate();
        }
        if (clientId != null) {
            connection.assignClientId(clientId);
        }
        return connection;
    }

    @Override
    public JMSContext createContext() {
        return createContext(null, null, JMSContext.AUTO_ACKNOWLEDGE);
    }

    @Override
    public JMSContext createContext(String userName, String password) {
        return createContext(userName, password, JMSContext.AUTO_ACKNOWLEDGE);
    }

    @Override
    public JMSContext createContext(int sessionMode) {
        return createContext(null, null, sessionMode);
    }

    @Override
    public JMSContext createContext(String userName, String password, int sessionMode) {
        return RamjetJMSContext.open(RuntimeExceptions.unchecked(() -> open(userName, password)), sessionMode);
    }

    @Override
    public Reference getReference() {
        Reference reference = new Reference(getClass().getName(), RamjetObjectFactory.class.getName(), null);
        reference.add(new StringRefAddr(RamjetObjectFactory.URL, url));
        if (clientId != null) {
            reference.add(new StringRefAddr(RamjetObjectFactory.CLIENT_ID, clientId));
        }
        return reference;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RamjetConnectionFactory f && f.getClass() == getClass() && f.url.equals(url)
                && Objects.equals(f.clientId, clientId)
                && f.requestTimeoutMillis == requestTimeoutMillis;
    }

    @Override
    public int hashCode() {
        return Objects.hash(url, clientId, requestTimeoutMillis);
    }

    @Override
    public String toString() {
        return "RamjetConnectionFactory[" + url + "]";
    }
}
