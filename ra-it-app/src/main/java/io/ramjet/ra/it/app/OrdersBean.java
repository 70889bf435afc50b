package io.ramjet.ra.it.app;

import jakarta.annotation.Resource;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;

/** Takes each order from queue it.orders and sends it on to it.orders.done in the same XA transaction. */
@MessageDriven(activationConfig = {
        @ActivationConfigProperty(propertyName = "resourceAdapter", propertyValue = "ramjet-ra"),
        @ActivationConfigProperty(propertyName = "destinationType", propertyValue = "jakarta.jms.Queue"),
        @ActivationConfigProperty(propertyName = "destination", propertyValue = "it.orders"),
        @ActivationConfigProperty(propertyName = "maxSession", propertyValue = "3"),
        @ActivationConfigProperty(propertyName = "reconnectIntervalMs", propertyValue = "500")
})
public class OrdersBean implements MessageListener {

    @Resource(lookup = "java:app/jms/cf")
    private ConnectionFactory factory;

    @Override
    public void onMessage(Message message) {
        Forwarding.forward(factory, "it.orders.done", message);
    }
}
