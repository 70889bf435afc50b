/**
 * The CommitLog message record: {@link io.ramjet.model.record.MessageRecordDescriptor} draws the
 * layout, {@link io.ramjet.model.record.MessageRecord} writes one and
 * {@link io.ramjet.model.record.MessageRecordView} reads one in place. Storage writes it, the
 * broker appends it and the client reads pulled messages in the same form.
 */
package io.ramjet.model.record;
