/**
 * What a broker reports about itself and an operator reads: destinations, subscriptions,
 * consumers, transactions and the broker's facts. The broker's admin functions, metrics and
 * console build them; the admin commands carry them.
 */
package io.ramjet.model.stats;
