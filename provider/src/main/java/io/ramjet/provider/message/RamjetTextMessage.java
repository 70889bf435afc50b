package io.ramjet.provider.message;

import io.ramjet.protocol.message.BodyType;
import jakarta.jms.JMSException;
import jakarta.jms.TextMessage;

public class RamjetTextMessage extends RamjetMessage implements TextMessage {

    private String text;

    public RamjetTextMessage() {
    }

    public RamjetTextMessage(String text) {
        this.text = text;
    }

    @Override
    public BodyType bodyType() {
        return BodyType.TEXT;
    }

    @Override
    public void setText(String text) throws JMSException {
        checkWritable();
        this.text = text;
    }

    @Override
    public String getText() {
        return text;
    }

    @Override
    public void clearBody() throws JMSException {
        super.clearBody();
        text = null;
    }

    @Override
    Object bodyValue() {
        return text;
    }
}
