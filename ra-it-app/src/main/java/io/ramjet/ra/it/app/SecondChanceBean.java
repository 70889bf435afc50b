package io.ramjet.ra.it.app;

import jakarta.annotation.Resource;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;

/**
 * Sends each message of queue it.second-chance on to it.second-chance.done, then fails on its
 * first delivery: what it sent must roll back with the message it took, so only the send of the
 * second delivery arrives.
 */
@MessageDriven(activationConfig = {
        @ActivationConfigProperty(propertyName = "resourceAdapter", propertyValue = "ramjet-ra"),
        @ActivationConfigProperty(propertyName = "destinationType", propertyValue = "jakarta.jms.Queue"),
        @ActivationConfigProperty(propertyName = "destination", propertyValue = "it.second-chance"),
        @ActivationConfigProperty(propertyName = "maxSession", propertyValue = "2")
})
public class SecondChanceBean implements MessageListener {

    @Resource(lookup = "java:app/jms/cf")
    private ConnectionFactory factory;

    @Override
    public void onMessage(Message message) {
        Forwarding.forward(factory, "it.second-chance.done", message);
        try {
            if (message.getIntProperty("JMSXDeliveryCount") < 2) {
                throw new IllegalStateException("first delivery of " + message.getJMSMessageID() + " fails");
            }
        } catch (JMSException e) {
            throw new IllegalStateException(e);
        }
    }
}
