/**
 * The cluster identity: how brokers prove to each other that they are members of the cluster
 * (they hold the cluster secret), and the check every broker-to-broker command makes before it
 * serves. Application logins never make a member.
 */
package io.ramjet.server.cluster;
