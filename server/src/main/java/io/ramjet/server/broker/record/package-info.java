/**
 * The broker's own on-disk layouts, one descriptor each: consumption records, transaction
 * decision records, the consumption snapshot and its transaction section. Enums are written by
 * explicit code, never by ordinal, and a golden-bytes test pins every layout. Imports no other
 * broker package: the domain packages turn their objects into these entries and back.
 */
package io.ramjet.server.broker.record;
