/**
 * The vocabulary broker, client, operator tools and controller share, free of the wire: what a
 * destination is ({@link io.ramjet.model.DestinationKind}), a subscription's name
 * ({@link io.ramjet.model.SubscriptionRef}), a message's place in it
 * ({@link io.ramjet.model.MessagePosition}), what a side knows of a transaction
 * ({@link io.ramjet.model.TxState}, {@link io.ramjet.model.XidCodec}) and a line of a broker
 * group's epoch history ({@link io.ramjet.model.EpochEntry}). The wire
 * ({@code io.ramjet.protocol.command}) carries these values; it does not define them.
 */
package io.ramjet.model;
