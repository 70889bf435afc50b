/**
 * What an operator sees and does on a running broker: depths and backlogs of destinations and
 * subscriptions, purge, move of messages between destinations (dead letters back to their
 * queue), and the broker's facts. Sits above the delivery, transaction and log layers, whose
 * state it reads and changes through their own operations; {@code processor} answers the admin
 * commands with it, in one processor where an admin permission is checked.
 */
package io.ramjet.server.broker.admin;
