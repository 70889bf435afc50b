/**
 * The broker's metrics through Micrometer: sampled depths of every destination, counters read
 * from the ConsumeQueues and the CommitLog's forces, request timers, JVM and disk; exposed as a
 * Prometheus scrape endpoint and through JMX when the configuration turns them on. Nothing here
 * is loaded otherwise, so a broker without Micrometer on its class path runs with metrics off.
 */
package io.ramjet.server.broker.metrics;
