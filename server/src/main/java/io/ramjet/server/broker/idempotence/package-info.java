/**
 * The idempotent producer: which messages of each producer this broker group has
 * stored, so that a resent message is answered without being stored twice. Built from the
 * records of the CommitLog alone, so a recovering broker and a slave rebuild the same table.
 */
package io.ramjet.server.broker.idempotence;
