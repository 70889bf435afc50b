package io.ramjet.ra.it.app;

import jakarta.annotation.Resource;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;
import jakarta.resource.ConnectionFactoryDefinition;
import jakarta.resource.spi.TransactionSupport.TransactionSupportLevel;

/**
 * {@link OrdersBean}'s shape on Artemis's adapter (module artemis-ra), for the benchmark that sets
 * the two side by side: takes each message from queue bench.orders and sends it on to
 * bench.orders.done in the same XA transaction, three sessions, a pool of at most eight. Packed
 * only in the war of classifier {@code artemis}, which is deployed beside artemis-ra.rar.
 */
@MessageDriven(activationConfig = {
        @ActivationConfigProperty(propertyName = "resourceAdapter", propertyValue = "artemis-ra"),
        @ActivationConfigProperty(propertyName = "destinationType", propertyValue = "jakarta.jms.Queue"),
        @ActivationConfigProperty(propertyName = "destination", propertyValue = "bench.orders"),
        @ActivationConfigProperty(propertyName = "useJNDI", propertyValue = "false"),
        @ActivationConfigProperty(propertyName = "maxSession", propertyValue = "3")
})
@ConnectionFactoryDefinition(name = "java:app/jms/artemisCf",
        interfaceName = "org.apache.activemq.artemis.ra.ActiveMQRAConnectionFactory", resourceAdapter = "artemis-ra",
        transactionSupport = TransactionSupportLevel.XATransaction, minPoolSize = 0, maxPoolSize = 8)
public class ArtemisOrdersBean implements MessageListener {

    @Resource(lookup = "java:app/jms/artemisCf")
    private ConnectionFactory factory;

    @Override
    public void onMessage(Message message) {
        Forwarding.forward(factory, "bench.orders.done", message);
    }
}
