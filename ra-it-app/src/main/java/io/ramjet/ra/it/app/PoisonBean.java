package io.ramjet.ra.it.app;

import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.EJB;
import jakarta.ejb.MessageDriven;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;

/** Fails on every message of queue it.poison, so the broker redelivers it until it dead-letters it. */
@MessageDriven(activationConfig = {
        @ActivationConfigProperty(propertyName = "resourceAdapter", propertyValue = "ramjet-ra"),
        @ActivationConfigProperty(propertyName = "destinationType", propertyValue = "jakarta.jms.Queue"),
        @ActivationConfigProperty(propertyName = "destination", propertyValue = "it.poison"),
        @ActivationConfigProperty(propertyName = "maxSession", propertyValue = "2")
})
public class PoisonBean implements MessageListener {

    @EJB
    private Attempts attempts;

    @Override
    public void onMessage(Message message) {
        attempts.increment();
        throw new IllegalStateException("poison: " + message);
    }
}
