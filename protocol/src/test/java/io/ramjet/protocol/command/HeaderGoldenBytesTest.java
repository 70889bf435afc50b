package io.ramjet.protocol.command;

import io.ramjet.model.DestinationKind;
import io.ramjet.model.EpochEntry;
import io.ramjet.model.MessagePosition;
import io.ramjet.model.SubscriptionRef;
import io.ramjet.model.SubscriptionType;
import io.ramjet.model.TxState;
import io.ramjet.model.stats.BrokerFacts;
import io.ramjet.model.stats.ConsumerDeliveryState;
import io.ramjet.model.stats.ConsumerStats;
import io.ramjet.model.stats.DestinationDeliveryState;
import io.ramjet.model.stats.DestinationStats;
import io.ramjet.model.stats.QueueDeliveryState;
import io.ramjet.model.stats.SubscriptionStats;
import io.ramjet.model.stats.TransactionStats;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.Registration;
import io.ramjet.protocol.frame.HeaderCodec;
import org.junit.jupiter.api.Test;

import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Pins every Kryo-registered header type to bytes: a fixed instance of each encodes to the
 * committed hex and decodes back equal, so renaming, adding or removing a record's component,
 * changing a component's type, renumbering a registration or reordering an enum fails here before
 * it reaches a peer of another version. (Kryo writes a record's components in the order of their
 * names, so reordering them in the declaration alone changes nothing on the wire.) A new header
 * type needs its row; the coverage test says so.
 */
class HeaderGoldenBytesTest {

    private static final HexFormat HEX = HexFormat.of();
    private static final HeaderCodec CODEC = new HeaderCodec();

    private static final SubscriptionRef DURABLE = new SubscriptionRef("prices", SubscriptionType.DURABLE, "app", "sub");
    private static final BrokerInfo BROKER = new BrokerInfo("c", "broker-a", 1, "10.0.0.1:10911");
    private static final BrokerProof PROOF = new BrokerProof(1_700_000_000_000L, "nonce", "mac");
    private static final DestinationInfo DESTINATION = new DestinationInfo("orders", DestinationKind.QUEUE, 4, 6);
    private static final MessagePosition POSITION = new MessagePosition(3, 42);
    private static final AckRequest ACK = new AckRequest(7, DURABLE, List.of(POSITION, new MessagePosition(0, 1)));
    private static final PulledMessage PULLED = new PulledMessage(2, 9, 1, 300);
    private static final DestinationStats DESTINATION_STATS = new DestinationStats("orders", DestinationKind.QUEUE,
            false, 4, 10, 5, 2, 1, 3, 3, 2, 1);
    private static final SubscriptionStats SUBSCRIPTION_STATS = new SubscriptionStats("prices", DestinationKind.TOPIC,
            "DURABLE", "app", "sub", "n > 1", false, 1, 7, 2);
    private static final TransactionStats TRANSACTION_STATS = new TransactionStats(11, "1:0a:0b", "PREPARED",
            "127.0.0.1:50000", "", 2, 1, 1_000L);
    private static final ParkedSendStats PARKED_STATS = new ParkedSendStats("broker-a", 0x0102030405060708L, 9L, 11L,
            DestinationKind.QUEUE, "orders", 1_000L);
    private static final ConsumerStats CONSUMER_STATS = new ConsumerStats(5, "127.0.0.1:50000", "orders",
            DestinationKind.QUEUE, "QUEUE", null);

    private static final ConsumerDeliveryState CONSUMER_DELIVERIES = new ConsumerDeliveryState(7L, 4, 2L, 7L, 8L, 1);
    private static final QueueDeliveryState QUEUE_DELIVERIES = new QueueDeliveryState("orders",
            DestinationKind.QUEUE, "QUEUE", 1, 0L, 10L, 2L, 8L, 6L, 4L, 5L, List.of(CONSUMER_DELIVERIES));

    /** Registration id to class, as {@link HeaderRegistry} must keep them. */
    private static final Map<Integer, Class<?>> IDS = ids();

    /** Each header type: a fixed instance and its bytes. */
    private static final Map<Object, String> GOLDEN = golden();

    private static Map<Integer, Class<?>> ids() {
        Map<Integer, Class<?>> ids = new TreeMap<>();
        ids.put(100, ErrorHeader.class);
        ids.put(101, DestinationKind.class);
        ids.put(110, BrokerInfo.class);
        ids.put(111, DestinationInfo.class);
        ids.put(112, RegisterBrokerRequest.class);
        ids.put(113, UnregisterBrokerRequest.class);
        ids.put(114, QueryRouteRequest.class);
        ids.put(115, BrokerRoute.class);
        ids.put(116, RouteData.class);
        ids.put(117, BrokerList.class);
        ids.put(118, BrokerProof.class);
        ids.put(200, SubscriptionType.class);
        ids.put(201, SubscriptionRef.class);
        ids.put(202, MessagePosition.class);
        ids.put(203, SendRequest.class);
        ids.put(204, SendResponse.class);
        ids.put(205, SubscribeRequest.class);
        ids.put(206, SubscribeResponse.class);
        ids.put(207, PullRequest.class);
        ids.put(208, PulledMessage.class);
        ids.put(209, PullResponse.class);
        ids.put(210, AckRequest.class);
        ids.put(212, CloseConsumerRequest.class);
        ids.put(213, DeleteSubscriptionRequest.class);
        ids.put(214, CreateDestinationRequest.class);
        ids.put(215, DeleteDestinationRequest.class);
        ids.put(216, DestinationList.class);
        ids.put(220, TxPrepareRequest.class);
        ids.put(221, TxEndRequest.class);
        ids.put(222, TxCheckRequest.class);
        ids.put(223, TxQueryRequest.class);
        ids.put(224, TxState.class);
        ids.put(225, TxStateResponse.class);
        ids.put(226, XaRecoverResponse.class);
        ids.put(227, TxAcksRequest.class);
        ids.put(230, ClaimClientIdRequest.class);
        ids.put(231, BrowseRequest.class);
        ids.put(232, BrowseResponse.class);
        ids.put(233, AuthenticateRequest.class);
        ids.put(260, TxCommitCountedRequest.class);
        ids.put(300, AdminQuery.class);
        ids.put(301, DestinationStats.class);
        ids.put(302, DestinationStatsList.class);
        ids.put(303, SubscriptionStats.class);
        ids.put(304, SubscriptionStatsList.class);
        ids.put(305, ConsumerStats.class);
        ids.put(306, ConsumerStatsList.class);
        ids.put(307, PurgeRequest.class);
        ids.put(308, MoveRequest.class);
        ids.put(309, AdminCount.class);
        ids.put(310, BrokerFacts.class);
        ids.put(311, TransactionStats.class);
        ids.put(312, TransactionStatsList.class);
        ids.put(313, AdminCreateRequest.class);
        ids.put(314, ParkedSendStats.class);
        ids.put(315, ParkedSendList.class);
        ids.put(316, ParkedResolveRequest.class);
        ids.put(317, AdminSubscriptionRequest.class);
        ids.put(325, QueueDeliveryState.class);
        ids.put(326, ConsumerDeliveryState.class);
        ids.put(327, DestinationDeliveryState.class);
        ids.put(420, EpochEntry.class);
        ids.put(421, ReplicaHandshakeRequest.class);
        ids.put(422, ReplicaHandshakeResponse.class);
        ids.put(423, ReplicaFetchRequest.class);
        ids.put(424, ReplicaFetchResponse.class);
        ids.put(440, ClusterChallenge.class);
        ids.put(441, ClusterAuthenticateRequest.class);
        ids.put(442, ClusterAuthenticateResponse.class);
        ids.put(465, ReleaseBatchRequest.class);
        ids.put(480, AnnounceDestinationsRequest.class);
        ids.put(500, ChunkWriteRequest.class);
        ids.put(501, ChunkWriteResponse.class);
        ids.put(502, ChunkReadRequest.class);
        ids.put(520, ParkedSendRequest.class);
        ids.put(521, ParkedQueryRequest.class);
        ids.put(522, ParkedQueryResponse.class);
        return ids;
    }

    private static Map<Object, String> golden() {
        Map<Object, String> g = new LinkedHashMap<>();
        g.put(new ErrorHeader(ErrorStatus.BAD_REQUEST, "bad"), "660462616404");
        g.put(DestinationKind.QUEUE, "6701");
        g.put(DestinationKind.TOPIC, "6702");
        g.put(BROKER, "700f31302e302e302e313a3130393131020962726f6b65722d610263");
        g.put(DESTINATION, "7101076f72646572730c08");
        g.put(new RegisterBrokerRequest(BROKER, List.of(DESTINATION), PROOF, 7), "72010f31302e302e302e313a3130393131020962726f6b65722d6102630d017101076f72646572730c080e01046d6163066e6f6e636580a0abfef962");
        g.put(new UnregisterBrokerRequest("c", "broker-a", 1, PROOF), "73020962726f6b65722d61026301046d6163066e6f6e636580a0abfef962");
        g.put(new QueryRouteRequest("orders"), "74076f7264657273");
        g.put(new BrokerRoute(BROKER, DestinationKind.TOPIC, 8, 2), "75010f31302e302e302e313a3130393131020962726f6b65722d610263020410");
        g.put(new RouteData("orders", List.of(new BrokerRoute(BROKER, DestinationKind.QUEUE, 4, 6))), "760d0175010f31302e302e302e313a3130393131020962726f6b65722d610263010c08076f72646572730d01030962726f6b65722d6101");
        g.put(new BrokerList(List.of(BROKER, new BrokerInfo("c", "broker-b", 0, "h:1"))), "770d02700f31302e302e302e313a3130393131020962726f6b65722d6102637004683a31000962726f6b65722d620263");
        g.put(PROOF, "78046d6163066e6f6e636580a0abfef962");
        g.put(SubscriptionType.QUEUE, "ca0101");
        g.put(SubscriptionType.TOPIC, "ca0102");
        g.put(SubscriptionType.DURABLE, "ca0103");
        g.put(SubscriptionType.SHARED, "ca0104");
        g.put(SubscriptionType.SHARED_DURABLE, "ca0105");
        g.put(DURABLE, "cb0104617070077072696365730473756203");
        g.put(POSITION, "cc010654");
        g.put(new SendRequest("orders", DestinationKind.QUEUE, 2, true, 1_000L, 2_000L, 33, 77L), "cd01d00f076f7264657273a01f0101004204009a01");
        g.put(new SendRequest("orders", DestinationKind.QUEUE, 2, true, 1_000L, 2_000L, 33, 0L, 0x0102030405060708L, 9L), "cd01d00f076f7264657273a01f0101909cb0d080c181820242041200");
        g.put(new SendResponse(2, 10, 4096), "ce0180400414");
        g.put(new SubscribeRequest(DURABLE, "colour = 'red'", true, 5), "cf010a010f636f6c6f7572203d2027726564270104617070077072696365730473756203");
        g.put(new SubscribeResponse(4), "d00108");
        g.put(new PullRequest(5, DURABLE, 64, 300), "d1010ad80480010104617070077072696365730473756203");
        g.put(PULLED, "d201020412d804");
        g.put(new PullResponse(List.of(PULLED)), "d3010d01d201020412d804");
        g.put(ACK, "d4010e0d02cc010654cc0100020104617070077072696365730473756203");
        g.put(new ReleaseBatchRequest(5, DURABLE, List.of(POSITION, new MessagePosition(0, 1)), false), "d3030a000d02cc010654cc0100020104617070077072696365730473756203");
        g.put(new CloseConsumerRequest(5, DURABLE, List.of(POSITION)), "d6010a0d01cc0106540104617070077072696365730473756203");
        g.put(new DeleteSubscriptionRequest("app", "sub"), "d7010461707004737562");
        g.put(new CreateDestinationRequest("tmp", DestinationKind.TOPIC, 1, true), "d8010204746d700201");
        g.put(new DeleteDestinationRequest("tmp", DestinationKind.QUEUE), "d9010104746d70");
        g.put(new DestinationList(List.of(DESTINATION)), "da010d017101076f72646572730c08");
        g.put(new TxPrepareRequest(11, "1:0a:0b", "10.0.0.1:10911", List.of(ACK)), "de010d01d4010e0d02cc010654cc01000201046170700770726963657304737562030f31302e302e302e313a31303931311608313a30613a3062");
        g.put(new TxEndRequest(11, "", true, List.of(ACK)), "df010d01d4010e0d02cc010654cc0100020104617070077072696365730473756203011601");
        g.put(new TxAcksRequest(11, List.of(ACK)), "e5010d01d4010e0d02cc010654cc010002010461707007707269636573047375620316");
        g.put(new TxCommitCountedRequest(11, 3, List.of(ACK)), "86020d01d4010e0d02cc010654cc01000201046170700770726963657304737562030616");
        g.put(new TxCheckRequest(12), "e00118");
        g.put(new TxQueryRequest(13), "e1011a");
        g.put(TxState.OPEN, "e20101");
        g.put(TxState.COMMITTED, "e20102");
        g.put(TxState.ROLLED_BACK, "e20103");
        g.put(TxState.UNKNOWN, "e20104");
        g.put(new TxStateResponse(14, TxState.COMMITTED), "e301021c");
        g.put(new XaRecoverResponse(List.of("1:0a:0b", "2::")), "e4010d020308313a30613a30620304323a3a");
        g.put(new ClaimClientIdRequest("app", false), "e8010461707000");
        g.put(new BrowseRequest("orders", 1, 2, 3, "n > 1"), "e9010406076f726465727302066e203e2031");
        g.put(new BrowseResponse(List.of(PULLED), 1, 10, false), "ea01000d01d201020412d8041402");
        g.put(new AuthenticateRequest("alice", "wonderland"), "eb010b776f6e6465726c616e6406616c696365");
        g.put(new AdminQuery("orders"), "ae02076f7264657273");
        g.put(new AdminQuery(null), "ae0200");
        g.put(DESTINATION_STATS, "af02060406140401076f7264657273080a020200");
        g.put(new DestinationStatsList(List.of(DESTINATION_STATS)), "b0020d01af02060406140401076f7264657273080a020200");
        g.put(SUBSCRIPTION_STATS, "b1020e04617070020770726963657302040844555241424c450473756200066e203e2031");
        g.put(new SubscriptionStatsList(List.of(SUBSCRIPTION_STATS)), "b2020d01b1020e04617070020770726963657302040844555241424c450473756200066e203e2031");
        g.put(CONSUMER_STATS, "b302103132372e302e302e313a3530303030076f7264657273010a00065155455545");
        g.put(new ConsumerStatsList(List.of(CONSUMER_STATS)), "b4020d01b302103132372e302e302e313a3530303030076f7264657273010a00065155455545");
        g.put(PurgeRequest.queue("orders"), "b50200076f726465727300");
        g.put(new PurgeRequest(null, "app", "sub"), "b502046170700004737562");
        g.put(new MoveRequest("DLQ.orders", null, "n > 1", false, 100), "b602000b444c512e6f7264657273c801066e203e203100");
        g.put(new AdminCount(42), "b70254");
        g.put(new AdminCreateRequest("orders", DestinationKind.TOPIC, 4), "bb0202076f726465727308");
        g.put(new AdminSubscriptionRequest(DURABLE, "colour = 'red'", false),
                "bf02000f636f6c6f7572203d2027726564270104617070077072696365730473756203");
        g.put(new BrokerFacts("1.0", "broker-a", "10.0.0.1:10911", 1_000L, 2_000L, 300L, 100L, 0.9, 40L, 20L, 2, 3,
                1, 0, 36L), "b8020f31302e302e302e313a31303931310962726f6b65722d6150482806d804c801cdccccccccccec3f020004d00fa01f04312e30");
        g.put(TRANSACTION_STATS, "b90202011604103132372e302e302e313a3530303030d00f09505245504152454408313a30613a3062");
        g.put(new TransactionStatsList(List.of(TRANSACTION_STATS)), "ba020d01b90202011604103132372e302e302e313a3530303030d00f09505245504152454408313a30613a3062");
        g.put(PARKED_STATS, "bc02076f72646572730962726f6b65722d6101909cb0d080c181820212d00f16");
        g.put(new ParkedSendList(List.of(PARKED_STATS)), "bd020d01bc02076f72646572730962726f6b65722d6101909cb0d080c181820212d00f16");
        g.put(new ParkedResolveRequest("broker-a", true), "be02010962726f6b65722d61");
        g.put(CONSUMER_DELIVERIES, "c8020e0402080e10");
        g.put(QUEUE_DELIVERIES, "c7020d01c8020e0402080e10076f7264657273010a080414000c0210065155455545");
        g.put(new DestinationDeliveryState(4096L, 2048L, 1024L, List.of(QUEUE_DELIVERIES)),
                "c902801080200d01c7020d01c8020e0402080e10076f7264657273010a080414000c02100651554555458040");
        g.put(new EpochEntry(3, 4096L), "a603068040");
        g.put(new ReplicaHandshakeRequest("broker-a", 1), "a703020962726f6b65722d61");
        g.put(new ReplicaHandshakeResponse(List.of(new EpochEntry(1, 0), new EpochEntry(2, 4096)), 8192L, 0L,
                1 << 30), "a8038080010d02a6030200a603048040008080808008");
        g.put(new ReplicaFetchRequest(1, 4096L, 65536, 500L), "a90302e8078080088040");
        g.put(new ReplicaFetchResponse(4096L, 2, 8192L), "aa03808001048040");
        g.put(new ClusterChallenge("Y2hhbGxlbmdl"), "ba030d593268686247786c626d646c");
        g.put(new ClusterAuthenticateRequest("broker-a", 1, "bm9uY2U=", "bWFj"),
                "bb03020962726f6b65722d61056257466a09626d39755932553d");
        g.put(new ClusterAuthenticateResponse("bWFj"), "bc03056257466a");
        g.put(new AnnounceDestinationsRequest(BROKER, 7, List.of(DESTINATION),
                List.of(new DestinationInfo("TMP.1.2", DestinationKind.QUEUE, 1, 6))),
                "e2030d017101076f72646572730c08010f31302e302e302e313a3130393131020962726f6b65722d6102630e0d01710108544d502e312e320c02");
        g.put(new ChunkWriteRequest("orders", DestinationKind.QUEUE, 0x1234_5678_9abc_def0L, 3), "f603076f72646572730601e0fbe6ab939eabb424");
        g.put(new ChunkWriteResponse(1L << 30), "f7038080808008");
        g.put(new ChunkReadRequest("orders", 0x1234_5678_9abc_def0L, 4096), "f803076f72646572738040e0fbe6ab939eabb424");
        g.put(new ParkedSendRequest("broker-a", new SendRequest("orders", DestinationKind.QUEUE, 2, true, 1_000L,
                2_000L, 33, 0L, 0x0102030405060708L, 9L)),
                "8a040962726f6b65722d6101d00f076f7264657273a01f0101909cb0d080c181820242041200");
        g.put(new ParkedQueryRequest(0x0102030405060708L, 9L), "8b04909cb0d080c181820212");
        g.put(new ParkedQueryResponse(true), "8c0401");
        return g;
    }

    @Test
    void registrationIdsAreFixed() {
        Kryo kryo = new Kryo();
        HeaderRegistry.configure(kryo);
        Map<Integer, Class<?>> registered = new TreeMap<>();
        for (int id = 100; id < 1000; id++) {
            Registration registration = kryo.getRegistration(id);
            if (registration != null) {
                registered.put(id, registration.getType());
            }
        }
        assertEquals(IDS, registered);
    }

    @Test
    void retiredIdsAreNeverGivenAgain() {
        Kryo kryo = new Kryo();
        HeaderRegistry.configure(kryo);
        assertEquals(Set.of(211, 217, 218, 219), HeaderRegistry.RETIRED_IDS);
        for (int id : HeaderRegistry.RETIRED_IDS) {
            assertEquals(null, kryo.getRegistration(id), "id " + id);
        }
    }

    @Test
    void everyRegisteredHeaderTypeHasGoldenBytes() {
        Set<Class<?>> covered = GOLDEN.keySet().stream().map(Object::getClass).collect(Collectors.toSet());
        for (Class<?> type : IDS.values()) {
            assertTrue(covered.contains(type), type.getSimpleName() + " has no golden bytes");
        }
    }

    @Test
    void eachHeaderEncodesToItsGoldenBytesAndBack() {
        StringBuilder mismatches = new StringBuilder();
        for (Map.Entry<Object, String> entry : GOLDEN.entrySet()) {
            String actual = HEX.formatHex(CODEC.encode(entry.getKey()));
            if (!actual.equals(entry.getValue())) {
                mismatches.append(entry.getKey()).append(" -> \"").append(actual).append("\"\n");
            }
        }
        assertEquals("", mismatches.toString(), "headers whose bytes changed");
        for (Map.Entry<Object, String> entry : GOLDEN.entrySet()) {
            assertEquals(entry.getKey(), CODEC.decode(HEX.parseHex(entry.getValue())));
        }
    }
}
