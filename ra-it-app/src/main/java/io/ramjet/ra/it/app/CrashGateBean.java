package io.ramjet.ra.it.app;

import jakarta.annotation.Resource;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;
import jakarta.jms.TextMessage;
import jakarta.transaction.TransactionManager;
import java.nio.file.Path;
import java.util.List;
import javax.naming.InitialContext;
import javax.naming.NamingException;

/**
 * Takes a message of queue it.xa-crash whose text names a directory, sends it on to
 * it.xa-crash.done, and enlists a {@link Gate} on that directory, so the transaction stops
 * between the prepare of its Ramjet branches and their commit for as long as the test wants.
 */
@MessageDriven(activationConfig = {
        @ActivationConfigProperty(propertyName = "resourceAdapter", propertyValue = "ramjet-ra"),
        @ActivationConfigProperty(propertyName = "destinationType", propertyValue = "jakarta.jms.Queue"),
        @ActivationConfigProperty(propertyName = "destination", propertyValue = "it.xa-crash"),
        @ActivationConfigProperty(propertyName = "maxSession", propertyValue = "1"),
        @ActivationConfigProperty(propertyName = "reconnectIntervalMs", propertyValue = "500")
})
public class CrashGateBean implements MessageListener {

    @Resource(lookup = "java:app/jms/cf")
    private ConnectionFactory factory;

    /** Where Payara and WildFly bind their transaction manager (Jakarta EE names no place for it). */
    private static final List<String> TRANSACTION_MANAGER_NAMES =
            List.of("java:appserver/TransactionManager", "java:jboss/TransactionManager");

    @Override
    public void onMessage(Message message) {
        Forwarding.forward(factory, "it.xa-crash.done", message);
        try {
            transactionManager().getTransaction().enlistResource(new Gate(Path.of(((TextMessage) message).getText())));
        } catch (JMSException | NamingException | jakarta.transaction.RollbackException
                 | jakarta.transaction.SystemException e) {
            throw new IllegalStateException("cannot enlist the gate", e);
        }
    }

    private static TransactionManager transactionManager() throws NamingException {
        InitialContext context = new InitialContext();
        NamingException missing = null;
        for (String name : TRANSACTION_MANAGER_NAMES) {
            try {
                return (TransactionManager) context.lookup(name);
            } catch (NamingException e) {
                missing = e;
            }
        }
        throw missing;
    }
}
