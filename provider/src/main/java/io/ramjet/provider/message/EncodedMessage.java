package io.ramjet.provider.message;

/** A message as it travels: its header section (MessagePropertiesCodec) and its body bytes. */
public record EncodedMessage(byte[] properties, byte[] body) {
}
