package io.ramjet.server.broker;

import io.ramjet.model.DestinationKind;
import io.ramjet.model.SubscriptionRef;
import io.ramjet.protocol.command.CommandCode;
import io.ramjet.protocol.command.ErrorStatus;
import io.ramjet.protocol.command.SendRequest;
import io.ramjet.protocol.message.HeaderSectionDescriptor;
import io.ramjet.protocol.message.MessageHeaders;
import io.ramjet.protocol.message.MessagePropertiesCodec;
import io.ramjet.protocol.remoting.RemotingCommandException;
import io.ramjet.server.broker.BrokerTestClient.Received;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Raw SEND and transactional SEND frames with malformed header sections, over real
 * sockets: each is refused with BAD_REQUEST, nothing of it is stored, and the connection takes the
 * next valid send.
 */
class WireInputTest extends BrokerTestBase {

    private static final SubscriptionRef QUEUE = SubscriptionRef.queue("inbox");


    private static byte[] valid() {
        return MessagePropertiesCodec.encode(new MessageHeaders().type("t").property("colour", "wxyz").property("n", 1));
    }

    /** Malformed sections by what is wrong with them. */
    private static Map<String, byte[]> garbage() {
        byte[] valid = valid();
        Map<String, byte[]> out = new LinkedHashMap<>();
        out.put("text, not a section", "p:hello".getBytes(StandardCharsets.UTF_8));
        out.put("empty", new byte[0]);
        out.put("truncated", Arrays.copyOf(valid, valid.length - 3));
        out.put("trailing garbage", Arrays.copyOf(valid, valid.length + 2));
        byte[] tag = valid.clone();
        tag[valid.length - 5] = 42;   // the tag of the int value of "n"
        out.put("unknown value tag", tag);
        byte[] length = valid.clone();
        length[indexOf(valid, "wxyz") - 1] = 120;
        out.put("string length past the end", length);
        byte[] varint = valid.clone();
        varint[HeaderSectionDescriptor.FIXED_LENGTH] = (byte) 0xFF;
        out.put("unterminated varint", varint);
        byte[] utf8 = valid.clone();
        utf8[indexOf(valid, "wxyz")] = (byte) 0xC0;
        out.put("malformed UTF-8", utf8);
        byte[] count = valid.clone();
        count[HeaderSectionDescriptor.FIXED_LENGTH + 2] = 100;   // after JMSType "t": the property count
        out.put("property count past the end", count);
        return out;
    }

    private static int indexOf(byte[] bytes, String ascii) {
        byte[] b = ascii.getBytes(StandardCharsets.US_ASCII);
        for (int i = 0; i + b.length <= bytes.length; i++) {
            if (Arrays.equals(bytes, i, i + b.length, b, 0, b.length)) {
                return i;
            }
        }
        throw new AssertionError(ascii);
    }

    @Test
    void sendWithAMalformedSectionIsRefusedAndTheNextValidSendOnTheConnectionIsStored() throws Exception {
        client.subscribe(QUEUE, 1);
        for (Map.Entry<String, byte[]> bad : garbage().entrySet()) {
            RemotingCommandException refused = assertThrows(RemotingCommandException.class, () ->
                    client.sendRaw("inbox", DestinationKind.QUEUE, 0, bad.getValue(), "bad: " + bad.getKey(), 0),
                    bad.getKey());
            assertEquals(ErrorStatus.BAD_REQUEST, refused.status(), bad.getKey());
            assertTrue(refused.getMessage().contains("malformed header section"), refused.getMessage());
        }
        assertEquals(0, client.sendRaw("inbox", DestinationKind.QUEUE, 0, valid(), "good", 0).queueOffset());
        List<Received> got = client.pull(QUEUE, 1, 100, 200);
        assertEquals(List.of("good"), got.stream().map(Received::body).toList());
    }

    @Test
    void transactionalSendWithAMalformedSectionIsRefused() throws Exception {
        for (Map.Entry<String, byte[]> bad : garbage().entrySet()) {
            byte[] section = bad.getValue();
            RemotingCommandException refused = assertThrows(RemotingCommandException.class, () ->
                    client.invoke(CommandCode.SEND, new SendRequest("inbox", DestinationKind.QUEUE, 0, true, 0, 0,
                            section.length, 77), withBody(section, "x")), bad.getKey());
            assertEquals(ErrorStatus.BAD_REQUEST, refused.status(), bad.getKey());
        }
        assertEquals(0, client.sendRaw("inbox", DestinationKind.QUEUE, 0, valid(), "good", 0).queueOffset());
    }

    @Test
    void validSectionWithNonAsciiTextIsStoredAndSelectable() throws Exception {
        byte[] section = MessagePropertiesCodec.encode(new MessageHeaders().property("größe", "groß \ud83d\ude00"));
        client.subscribe(QUEUE, 1, "größe = 'groß \ud83d\ude00'");
        client.sendRaw("inbox", DestinationKind.QUEUE, 0, section, "big", 0);
        assertEquals(List.of("big"), client.pull(QUEUE, 1, 10, 200).stream().map(Received::body).toList());
    }

    private static byte[] withBody(byte[] section, String body) {
        return concat(section, body.getBytes(StandardCharsets.UTF_8));
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
