package io.ramjet.ra;

import jakarta.jms.Session;
import jakarta.resource.ResourceException;
import jakarta.resource.spi.ActivationSpec;
import jakarta.resource.spi.InvalidPropertyException;
import jakarta.resource.spi.ResourceAdapter;

/**
 * How a message-driven bean is fed: the standard Jakarta Messaging activation properties
 * ({@code destinationLookup} or {@code destination}, {@code destinationType}, {@code messageSelector},
 * {@code acknowledgeMode}, {@code subscriptionDurability}, {@code subscriptionName}, {@code clientId},
 * {@code shareSubscriptions}) plus where to connect ({@code connectionUrl}, {@code userName},
 * {@code password}; unset means the resource adapter's), {@code maxSession} (concurrent deliveries),
 * {@code receiveTimeoutMs} (how long an idle delivery waits for a message), {@code redeliveryDelayMs}
 * (pause after a delivery rolled back) and {@code reconnectIntervalMs} (pause between attempts to
 * reach a broker that went away). How many times a message is redelivered before it goes to the
 * dead-letter queue is the broker's {@code maxDeliveries}.
 */
public class RamjetActivationSpec extends ConnectionProperties implements ActivationSpec {

    private static final long serialVersionUID = 1L;

    static final String QUEUE = "jakarta.jms.Queue";
    static final String TOPIC = "jakarta.jms.Topic";

    private transient ResourceAdapter resourceAdapter;
    private String destinationLookup;
    private String destination;
    private String destinationType = QUEUE;
    private String messageSelector;
    private String acknowledgeMode = "Auto-acknowledge";
    private String subscriptionDurability = "NonDurable";
    private String subscriptionName;
    private String clientId;
    private boolean shareSubscriptions;
    private int maxSession = 5;
    private long receiveTimeoutMs = 1_000;
    private long redeliveryDelayMs = 0;
    private long reconnectIntervalMs = 1_000;

    /**
     * Checks the properties against each other before the activation starts.
     *
     * @throws InvalidPropertyException naming the property at fault
     */
    @Override
    public void validate() throws InvalidPropertyException {
        if (isBlank(destination) && isBlank(destinationLookup)) {
            throw new InvalidPropertyException("destination or destinationLookup must be set");
        }
        if (!QUEUE.equals(destinationType) && !TOPIC.equals(destinationType)) {
            throw new InvalidPropertyException("destinationType must be " + QUEUE + " or " + TOPIC + ": "
                    + destinationType);
        }
        if (isDurable() && isBlank(subscriptionName)) {
            throw new InvalidPropertyException("a durable subscription needs a subscriptionName");
        }
        if (!"Durable".equals(subscriptionDurability) && !"NonDurable".equals(subscriptionDurability)) {
            throw new InvalidPropertyException("subscriptionDurability must be Durable or NonDurable: "
                    + subscriptionDurability);
        }
        sessionAcknowledgeMode();
        if (maxSession < 1) {
            throw new InvalidPropertyException("maxSession must be at least 1: " + maxSession);
        }
        if (receiveTimeoutMs < 1 || redeliveryDelayMs < 0 || reconnectIntervalMs < 1) {
            throw new InvalidPropertyException("receiveTimeoutMs and reconnectIntervalMs must be positive, "
                    + "redeliveryDelayMs not negative");
        }
    }

    boolean isTopic() {
        return TOPIC.equals(destinationType);
    }

    boolean isDurable() {
        return isTopic() && "Durable".equals(subscriptionDurability);
    }

    /**
     * Whether topic consumers share one subscription: asked for, or needed because several
     * sessions would otherwise each get a copy of every message.
     */
    boolean isSharedSubscription() {
        return isTopic() && (shareSubscriptions || maxSession > 1);
    }

    /** The session mode of a non-transacted delivery. */
    int sessionAcknowledgeMode() throws InvalidPropertyException {
        if (acknowledgeMode == null || "Auto-acknowledge".equalsIgnoreCase(acknowledgeMode)) {
            return Session.AUTO_ACKNOWLEDGE;
        }
        if ("Dups-ok-acknowledge".equalsIgnoreCase(acknowledgeMode)) {
            return Session.DUPS_OK_ACKNOWLEDGE;
        }
        throw new InvalidPropertyException("acknowledgeMode must be Auto-acknowledge or Dups-ok-acknowledge: "
                + acknowledgeMode);
    }

    private static boolean isBlank(String s) {
        return s == null || s.isBlank();
    }

    @Override
    public ResourceAdapter getResourceAdapter() {
        return resourceAdapter;
    }

    @Override
    public void setResourceAdapter(ResourceAdapter resourceAdapter) throws ResourceException {
        this.resourceAdapter = resourceAdapter;
    }

    public String getDestinationLookup() {
        return destinationLookup;
    }

    public void setDestinationLookup(String destinationLookup) {
        this.destinationLookup = destinationLookup;
    }

    public String getDestination() {
        return destination;
    }

    public void setDestination(String destination) {
        this.destination = destination;
    }

    public String getDestinationType() {
        return destinationType;
    }

    public void setDestinationType(String destinationType) {
        this.destinationType = destinationType;
    }

    public String getMessageSelector() {
        return messageSelector;
    }

    public void setMessageSelector(String messageSelector) {
        this.messageSelector = messageSelector;
    }

    public String getAcknowledgeMode() {
        return acknowledgeMode;
    }

    public void setAcknowledgeMode(String acknowledgeMode) {
        this.acknowledgeMode = acknowledgeMode;
    }

    public String getSubscriptionDurability() {
        return subscriptionDurability;
    }

    public void setSubscriptionDurability(String subscriptionDurability) {
        this.subscriptionDurability = subscriptionDurability;
    }

    public String getSubscriptionName() {
        return subscriptionName;
    }

    public void setSubscriptionName(String subscriptionName) {
        this.subscriptionName = subscriptionName;
    }

    public String getClientId() {
        return clientId;
    }

    public void setClientId(String clientId) {
        this.clientId = clientId;
    }

    public Boolean getShareSubscriptions() {
        return shareSubscriptions;
    }

    public void setShareSubscriptions(Boolean shareSubscriptions) {
        this.shareSubscriptions = shareSubscriptions;
    }

    public Integer getMaxSession() {
        return maxSession;
    }

    public void setMaxSession(Integer maxSession) {
        this.maxSession = maxSession;
    }

    public Long getReceiveTimeoutMs() {
        return receiveTimeoutMs;
    }

    public void setReceiveTimeoutMs(Long receiveTimeoutMs) {
        this.receiveTimeoutMs = receiveTimeoutMs;
    }

    public Long getRedeliveryDelayMs() {
        return redeliveryDelayMs;
    }

    public void setRedeliveryDelayMs(Long redeliveryDelayMs) {
        this.redeliveryDelayMs = redeliveryDelayMs;
    }

    public Long getReconnectIntervalMs() {
        return reconnectIntervalMs;
    }

    public void setReconnectIntervalMs(Long reconnectIntervalMs) {
        this.reconnectIntervalMs = reconnectIntervalMs;
    }

    @Override
    public String toString() {
        return "RamjetActivationSpec[" + destinationType + " "
                + (isBlank(destinationLookup) ? destination : destinationLookup)
                + (isDurable() ? " durable " + subscriptionName : "") + ", maxSession " + maxSession + "]";
    }
}
