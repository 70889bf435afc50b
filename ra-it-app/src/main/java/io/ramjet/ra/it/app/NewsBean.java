package io.ramjet.ra.it.app;

import jakarta.annotation.Resource;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;

/** A durable subscriber of topic it.news (two sessions sharing the subscription) that sends each item on to it.news.done. */
@MessageDriven(activationConfig = {
        @ActivationConfigProperty(propertyName = "resourceAdapter", propertyValue = "ramjet-ra"),
        @ActivationConfigProperty(propertyName = "destinationType", propertyValue = "jakarta.jms.Topic"),
        @ActivationConfigProperty(propertyName = "destination", propertyValue = "it.news"),
        @ActivationConfigProperty(propertyName = "subscriptionDurability", propertyValue = "Durable"),
        @ActivationConfigProperty(propertyName = "subscriptionName", propertyValue = "news-archive"),
        @ActivationConfigProperty(propertyName = "maxSession", propertyValue = "2"),
        @ActivationConfigProperty(propertyName = "reconnectIntervalMs", propertyValue = "500")
})
public class NewsBean implements MessageListener {

    @Resource(lookup = "java:app/jms/cf")
    private ConnectionFactory factory;

    @Override
    public void onMessage(Message message) {
        Forwarding.forward(factory, "it.news.done", message);
    }
}
