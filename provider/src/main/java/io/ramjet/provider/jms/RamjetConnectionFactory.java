package io.ramjet.provider.jms;

import io.ramjet.provider.client.ClientOptions;
import io.ramjet.provider.client.ClientTlsOptions;
import io.ramjet.provider.client.ConnectionInfo;
import io.ramjet.provider.client.Credentials;
import io.ramjet.provider.client.RamjetClient;
import io.ramjet.provider.client.RamjetClientFactory;
import io.ramjet.provider.destination.RamjetDestination;
import io.ramjet.provider.jms.error.JmsErrors;
import io.ramjet.provider.message.SerializationAllowList;
import io.ramjet.provider.url.RamjetUrl;
import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSException;
import jakarta.jms.QueueConnection;
import jakarta.jms.QueueConnectionFactory;
import jakarta.jms.ResourceAllocationException;
import jakarta.jms.TopicConnection;
import jakarta.jms.TopicConnectionFactory;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import java.util.function.BiFunction;
import javax.naming.Reference;
import javax.naming.Referenceable;
import javax.naming.StringRefAddr;

/**
 * The entry point: a factory of connections to the NameServers of a {@code ramjet://} URL.
 * URL options: {@value #CLIENT_ID}, {@value #REQUEST_TIMEOUT} (ms, default 5000: every request,
 * and how long {@code createConnection} waits for a NameServer to answer), what an ObjectMessage
 * may deserialize ({@link SerializationAllowList}): {@value #SERIALIZABLE_PACKAGES}
 * (comma-separated; without it the system property {@value SerializationAllowList#PROPERTY} or
 * the JDK value types), {@value #OBJECT_MAX_DEPTH}, {@value #OBJECT_MAX_ARRAY_LENGTH},
 * {@value #OBJECT_MAX_REFERENCES} and {@value #OBJECT_MAX_BYTES}; and the client's tunables,
 * documented in {@link ClientOptions}. Setters override them. An unknown option or a malformed
 * value is refused, naming the key.
 *
 * <p>The connections' clients come from the URL scheme's {@link RamjetClientFactory}, unless
 * {@link #setClientFactory} gave another (a test's in-memory client, for instance).
 * Serializable and Referenceable, so that any JNDI tree can hold it.
 */
public class RamjetConnectionFactory implements ConnectionFactory, QueueConnectionFactory, TopicConnectionFactory,
        Serializable, Referenceable {

    private static final long serialVersionUID = 1L;

    public static final String CLIENT_ID = "clientId";
    /** The reference address holding the URL, for {@code io.ramjet.provider.jndi.RamjetObjectFactory}. */
    public static final String REFERENCE_URL = "url";
    public static final String REQUEST_TIMEOUT = "requestTimeout";
    public static final String SERIALIZABLE_PACKAGES = "serializablePackages";
    public static final String OBJECT_MAX_DEPTH = "objectMaxDepth";
    public static final String OBJECT_MAX_ARRAY_LENGTH = "objectMaxArrayLength";
    public static final String OBJECT_MAX_REFERENCES = "objectMaxReferences";
    public static final String OBJECT_MAX_BYTES = "objectMaxBytes";

    /** The options this class reads itself; {@link ClientOptions} reads the others. */
    private static final Set<String> FACTORY_OPTIONS = Set.of(CLIENT_ID, REQUEST_TIMEOUT, SERIALIZABLE_PACKAGES,
            OBJECT_MAX_DEPTH, OBJECT_MAX_ARRAY_LENGTH, OBJECT_MAX_REFERENCES, OBJECT_MAX_BYTES);

    private String url;
    /** Not serialized: a factory read back from JNDI uses its URL scheme's. */
    private transient RamjetClientFactory clientFactory;
    private String clientId;
    private long requestTimeoutMillis = 5_000;
    /** Null: the system property's list, read when a connection opens. */
    private String serializablePackages;
    private int objectMaxDepth = SerializationAllowList.DEFAULT_MAX_DEPTH;
    private int objectMaxArrayLength = SerializationAllowList.DEFAULT_MAX_ARRAY_LENGTH;
    private long objectMaxReferences = SerializationAllowList.DEFAULT_MAX_REFERENCES;
    private long objectMaxBytes = SerializationAllowList.DEFAULT_MAX_BYTES;

    public RamjetConnectionFactory() {
        this("ramjet://localhost:" + RamjetUrl.DEFAULT_PORT);
    }

    public RamjetConnectionFactory(String url) {
        setUrl(url);
    }

    public String getUrl() {
        return url;
    }

    /** @throws IllegalArgumentException when the URL is not a valid {@code ramjet://} URL or an option is malformed */
    public void setUrl(String url) {
        RamjetUrl parsed = RamjetUrl.parse(url);
        ClientOptions.fromUrlOptions(parsed.options(), FACTORY_OPTIONS);
        ClientTlsOptions.fromUrl(parsed);
        String packages = parsed.options().get(SERIALIZABLE_PACKAGES);
        String depth = parsed.options().get(OBJECT_MAX_DEPTH);
        String arrayLength = parsed.options().get(OBJECT_MAX_ARRAY_LENGTH);
        String references = parsed.options().get(OBJECT_MAX_REFERENCES);
        String bytes = parsed.options().get(OBJECT_MAX_BYTES);
        SerializationAllowList bounds = SerializationAllowList.DEFAULT.withBounds(
                depth == null ? objectMaxDepth : number(OBJECT_MAX_DEPTH, depth),
                arrayLength == null ? objectMaxArrayLength : number(OBJECT_MAX_ARRAY_LENGTH, arrayLength),
                references == null ? objectMaxReferences : number(OBJECT_MAX_REFERENCES, references),
                bytes == null ? objectMaxBytes : number(OBJECT_MAX_BYTES, bytes));
        this.url = url;
        if (packages != null) {
            serializablePackages = packages;
        }
        setObjectBounds(bounds);
        String id = parsed.options().get(CLIENT_ID);
        if (id != null) {
            clientId = id;
        }
        String timeout = parsed.options().get(REQUEST_TIMEOUT);
        if (timeout != null) {
            setRequestTimeoutMillis(ClientOptions.number(REQUEST_TIMEOUT, timeout));
        }
    }

    /** Where this factory's connections get their clients; null for the URL scheme's. */
    public void setClientFactory(RamjetClientFactory clientFactory) {
        this.clientFactory = clientFactory;
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

    public String getSerializablePackages() {
        return serializablePackages;
    }

    /** The packages an ObjectMessage of this factory's connections may deserialize, comma-separated; null for the system property's. */
    public void setSerializablePackages(String packages) {
        this.serializablePackages = packages;
    }

    public int getObjectMaxDepth() {
        return objectMaxDepth;
    }

    public void setObjectMaxDepth(int maxDepth) {
        setObjectBounds(SerializationAllowList.DEFAULT.withBounds(maxDepth, objectMaxArrayLength, objectMaxReferences,
                objectMaxBytes));
    }

    public int getObjectMaxArrayLength() {
        return objectMaxArrayLength;
    }

    public void setObjectMaxArrayLength(int maxArrayLength) {
        setObjectBounds(SerializationAllowList.DEFAULT.withBounds(objectMaxDepth, maxArrayLength, objectMaxReferences,
                objectMaxBytes));
    }

    public long getObjectMaxReferences() {
        return objectMaxReferences;
    }

    public void setObjectMaxReferences(long maxReferences) {
        setObjectBounds(SerializationAllowList.DEFAULT.withBounds(objectMaxDepth, objectMaxArrayLength, maxReferences,
                objectMaxBytes));
    }

    public long getObjectMaxBytes() {
        return objectMaxBytes;
    }

    public void setObjectMaxBytes(long maxBytes) {
        setObjectBounds(SerializationAllowList.DEFAULT.withBounds(objectMaxDepth, objectMaxArrayLength,
                objectMaxReferences, maxBytes));
    }

    /** Takes the bounds of a list that checked them. */
    private void setObjectBounds(SerializationAllowList bounds) {
        objectMaxDepth = bounds.maxDepth();
        objectMaxArrayLength = bounds.maxArrayLength();
        objectMaxReferences = bounds.maxReferences();
        objectMaxBytes = bounds.maxBytes();
    }

    private static int number(String option, String value) {
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("option " + option + "=" + value + " is not a number; expected "
                    + option + "=<whole number>");
        }
    }

    /** What an ObjectMessage of a connection opened now may deserialize. */
    SerializationAllowList serializationAllowList() {
        return (serializablePackages == null ? SerializationAllowList.fromSystemProperties()
                : SerializationAllowList.of(serializablePackages))
                .withBounds(objectMaxDepth, objectMaxArrayLength, objectMaxReferences, objectMaxBytes);
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
     * A new connection made by {@code create}, with this factory's settings and client id, once a
     * NameServer answered (else it throws, after the request timeout: a
     * {@link ResourceAllocationException} when none could be reached). With a user name it is
     * authenticated on every live master first, and a refusal closes it and throws
     * {@link jakarta.jms.JMSSecurityException}; without one it is anonymous.
     */
    <C extends RamjetConnection> C open(String user, String password,
                                        BiFunction<ConnectionInfo, RamjetClient, C> create) throws JMSException {
        RamjetUrl parsed;
        ClientOptions options;
        ConnectionInfo info;
        try {
            parsed = RamjetUrl.parse(url);
            options = ClientOptions.fromUrlOptions(parsed.options(), FACTORY_OPTIONS);
            info = new ConnectionInfo(UUID.randomUUID().toString(), parsed.nameServers(),
                    null, Credentials.of(user, password), Duration.ofMillis(requestTimeoutMillis),
                    serializationAllowList(), options, ClientTlsOptions.fromUrl(parsed));
        } catch (IllegalArgumentException e) {
            // setUrl refused it already, unless this factory was read back from a serialized form
            JMSException refused = new JMSException(e.getMessage());
            refused.initCause(e);
            throw refused;
        }
        RamjetClientFactory clients = clientFactory != null ? clientFactory
                : RamjetClientFactory.forScheme(parsed.scheme());
        RamjetClient client;
        try {
            client = clients.create(info);
        } catch (IllegalArgumentException | UncheckedIOException e) { // a TLS file missing or unusable
            JMSException refused = new JMSException(e.getMessage()
                    + (e.getCause() != null ? ": " + e.getCause().getMessage() : ""));
            refused.initCause(e);
            throw refused;
        }
        try {
            JmsErrors.await(client.connect());
        } catch (JMSException e) {
            client.close();
            String text = "no NameServer of " + info.nameServers() + " answered within " + requestTimeoutMillis
                    + " ms: " + e.getMessage();
            JMSException failure = e instanceof ResourceAllocationException
                    ? new ResourceAllocationException(text) : new JMSException(text);
            failure.setLinkedException(e);
            failure.initCause(e);
            throw failure;
        }
        C connection = create.apply(info, client);
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
        Reference reference = new Reference(getClass().getName(), RamjetDestination.OBJECT_FACTORY, null);
        reference.add(new StringRefAddr(REFERENCE_URL, url));
        if (clientId != null) {
            reference.add(new StringRefAddr(CLIENT_ID, clientId));
        }
        if (serializablePackages != null) {
            reference.add(new StringRefAddr(SERIALIZABLE_PACKAGES, serializablePackages));
        }
        reference.add(new StringRefAddr(OBJECT_MAX_DEPTH, Integer.toString(objectMaxDepth)));
        reference.add(new StringRefAddr(OBJECT_MAX_ARRAY_LENGTH, Integer.toString(objectMaxArrayLength)));
        reference.add(new StringRefAddr(OBJECT_MAX_REFERENCES, Long.toString(objectMaxReferences)));
        reference.add(new StringRefAddr(OBJECT_MAX_BYTES, Long.toString(objectMaxBytes)));
        return reference;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RamjetConnectionFactory f && f.getClass() == getClass() && f.url.equals(url)
                && Objects.equals(f.clientId, clientId)
                && f.requestTimeoutMillis == requestTimeoutMillis
                && Objects.equals(f.serializablePackages, serializablePackages)
                && f.objectMaxDepth == objectMaxDepth && f.objectMaxArrayLength == objectMaxArrayLength
                && f.objectMaxReferences == objectMaxReferences && f.objectMaxBytes == objectMaxBytes;
    }

    @Override
    public int hashCode() {
        return Objects.hash(url, clientId, requestTimeoutMillis, serializablePackages, objectMaxDepth,
                objectMaxArrayLength, objectMaxReferences, objectMaxBytes);
    }

    @Override
    public String toString() {
        return "RamjetConnectionFactory[" + url + "]";
    }
}
