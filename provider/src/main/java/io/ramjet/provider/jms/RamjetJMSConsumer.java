package io.ramjet.provider.jms;

import static io.ramjet.provider.jms.RuntimeExceptions.unchecked;
import static io.ramjet.provider.jms.RuntimeExceptions.uncheckedRun;

import jakarta.jms.JMSConsumer;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageListener;

/** The simplified API's consumer: a {@link RamjetMessageConsumer} with unchecked exceptions. */
final class RamjetJMSConsumer implements JMSConsumer {

    private final RamjetMessageConsumer consumer;

    RamjetJMSConsumer(RamjetMessageConsumer consumer) {
        this.consumer = consumer;
    }

    @Override
    public String getMessageSelector() {
        return unchecked(consumer::getMessageSelector);
    }

    @Override
    public MessageListener getMessageListener() {
        return unchecked(consumer::getMessageListener);
    }

    @Override
    public void setMessageListener(MessageListener listener) {
        uncheckedRun(() -> consumer.setMessageListener(listener));
    }

    @Override
    public Message receive() {
        return unchecked(consumer::receive);
    }

    @Override
    public Message receive(long timeout) {
        return unchecked(() -> consumer.receive(timeout));
    }

    @Override
    public Message receiveNoWait() {
        return unchecked(consumer::receiveNoWait);
    }

    @Override
    public void close() {
        uncheckedRun(consumer::close);
    }

    @Override
    public <T> T receiveBody(Class<T> c) {
        return unchecked(() -> consumer.receiveBody(c, Long.MAX_VALUE / 2, false));
    }

    @Override
    public <T> T receiveBody(Class<T> c, long timeout) {
        return unchecked(() -> consumer.receiveBody(c, timeout == 0 ? Long.MAX_VALUE / 2 : timeout, false));
    }

    @Override
    public <T> T receiveBodyNoWait(Class<T> c) {
        return unchecked(() -> consumer.receiveBody(c, 0, true));
    }

}
