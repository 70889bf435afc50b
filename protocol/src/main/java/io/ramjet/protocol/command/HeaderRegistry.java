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
import io.ramjet.model.stats.SubscriptionStats;
import io.ramjet.model.stats.QueueDeliveryState;
import io.ramjet.model.stats.TransactionStats;

import com.esotericsoftware.kryo.Kryo;

import java.util.List;
import java.util.Set;

/**
 * The only classes a frame header may hold, each with its fixed Kryo id.
 *
 * <p>Kryo runs with registration required, so a class id not listed here fails decoding and
 * no class named by a peer is ever instantiated. Ids are part of the wire format: never reuse
 * or renumber one; add new classes with new ids. Kryo itself owns ids 0-9 (primitives and
 * {@code String}); 10-99 are JDK support types; 100 and up are Ramjet headers, grouped by
 * hundreds like {@link CommandCode}.
 *
 * <p>Strings and lists are decoded by serializers that check their length against the bytes
 * actually left in the header before allocating, so a hostile length cannot exhaust memory.
 */
public final class HeaderRegistry {

    /**
     * Ids of removed headers (the one-message ReleaseRequest; SEND_BATCH's entry, request and
     * response), never to be given again.
     */
    public static final Set<Integer> RETIRED_IDS = Set.of(211, 217, 218, 219);

    private HeaderRegistry() {
    }

    /** Configures a fresh Kryo instance for headers. */
    public static void configure(Kryo kryo) {
        kryo.setRegistrationRequired(true);
        kryo.setReferences(false);
        kryo.register(String.class, new BoundedStringSerializer());

        ImmutableListSerializer lists = new ImmutableListSerializer();
        kryo.register(List.of().getClass(), lists, 10);
        kryo.register(List.of(1).getClass(), lists, 11);

        kryo.register(ErrorHeader.class, 100);
        kryo.register(DestinationKind.class, 101);

        kryo.register(BrokerInfo.class, 110);
        kryo.register(DestinationInfo.class, 111);
        kryo.register(RegisterBrokerRequest.class, 112);
        kryo.register(UnregisterBrokerRequest.class, 113);
        kryo.register(QueryRouteRequest.class, 114);
        kryo.register(BrokerRoute.class, 115);
        kryo.register(RouteData.class, 116);
        kryo.register(BrokerList.class, 117);
        kryo.register(BrokerProof.class, 118);

        kryo.register(SubscriptionType.class, 200);
        kryo.register(SubscriptionRef.class, 201);
        kryo.register(MessagePosition.class, 202);
        kryo.register(SendRequest.class, 203);
        kryo.register(SendResponse.class, 204);
        kryo.register(SubscribeRequest.class, 205);
        kryo.register(SubscribeResponse.class, 206);
        kryo.register(PullRequest.class, 207);
        kryo.register(PulledMessage.class, 208);
        kryo.register(PullResponse.class, 209);
        kryo.register(AckRequest.class, 210);
        kryo.register(CloseConsumerRequest.class, 212);
        kryo.register(DeleteSubscriptionRequest.class, 213);
        kryo.register(CreateDestinationRequest.class, 214);
        kryo.register(DeleteDestinationRequest.class, 215);
        kryo.register(DestinationList.class, 216);

        kryo.register(TxPrepareRequest.class, 220);
        kryo.register(TxEndRequest.class, 221);
        kryo.register(TxCheckRequest.class, 222);
        kryo.register(TxQueryRequest.class, 223);
        kryo.register(TxState.class, 224);
        kryo.register(TxStateResponse.class, 225);
        kryo.register(XaRecoverResponse.class, 226);
        kryo.register(TxAcksRequest.class, 227);

        kryo.register(ClaimClientIdRequest.class, 230);
        kryo.register(BrowseRequest.class, 231);
        kryo.register(BrowseResponse.class, 232);
        kryo.register(AuthenticateRequest.class, 233);

        kryo.register(TxCommitCountedRequest.class, 260);

        kryo.register(AdminQuery.class, 300);
        kryo.register(DestinationStats.class, 301);
        kryo.register(DestinationStatsList.class, 302);
        kryo.register(SubscriptionStats.class, 303);
        kryo.register(SubscriptionStatsList.class, 304);
        kryo.register(ConsumerStats.class, 305);
        kryo.register(ConsumerStatsList.class, 306);
        kryo.register(PurgeRequest.class, 307);
        kryo.register(MoveRequest.class, 308);
        kryo.register(AdminCount.class, 309);
        kryo.register(BrokerFacts.class, 310);
        kryo.register(TransactionStats.class, 311);
        kryo.register(TransactionStatsList.class, 312);
        kryo.register(AdminCreateRequest.class, 313);
        kryo.register(ParkedSendStats.class, 314);
        kryo.register(ParkedSendList.class, 315);
        kryo.register(ParkedResolveRequest.class, 316);
        kryo.register(AdminSubscriptionRequest.class, 317);
        kryo.register(QueueDeliveryState.class, 325);
        kryo.register(ConsumerDeliveryState.class, 326);
        kryo.register(DestinationDeliveryState.class, 327);

        kryo.register(EpochEntry.class, 420);
        kryo.register(ReplicaHandshakeRequest.class, 421);
        kryo.register(ReplicaHandshakeResponse.class, 422);
        kryo.register(ReplicaFetchRequest.class, 423);
        kryo.register(ReplicaFetchResponse.class, 424);

        kryo.register(ClusterChallenge.class, 440);
        kryo.register(ClusterAuthenticateRequest.class, 441);
        kryo.register(ClusterAuthenticateResponse.class, 442);

        kryo.register(ReleaseBatchRequest.class, 465);

        kryo.register(AnnounceDestinationsRequest.class, 480);

        kryo.register(ChunkWriteRequest.class, 500);
        kryo.register(ChunkWriteResponse.class, 501);
        kryo.register(ChunkReadRequest.class, 502);

        kryo.register(ParkedSendRequest.class, 520);
        kryo.register(ParkedQueryRequest.class, 521);
        kryo.register(ParkedQueryResponse.class, 522);
    }
}
