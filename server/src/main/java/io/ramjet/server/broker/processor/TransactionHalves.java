package io.ramjet.server.broker.processor;

import io.ramjet.model.record.MessageRecord;
import io.ramjet.model.record.RecordFlags;
import io.ramjet.model.record.RecordType;
import io.ramjet.protocol.remoting.RemotingConnection;
import io.ramjet.server.broker.transaction.TransactionTable;

/**
 * The transaction side of SEND: a send with a transaction id opens (or joins)
 * that transaction for its connection, and its message is stored as a half record: PREPARED,
 * with the transaction id in the queue-offset field, the delivery time kept for the commit. The
 * dispatch of the record adds it to the transaction. Thread-safe.
 */
public final class TransactionHalves {

    private final TransactionTable transactions;

    public TransactionHalves(TransactionTable transactions) {
        this.transactions = transactions;
    }

    /**
     * Registers {@code connection} as the owner of transaction {@code transactionId}; nothing for 0.
     *
     * @throws io.ramjet.server.broker.error.BrokerException see {@link TransactionTable#open}
     */
    void open(long transactionId, RemotingConnection connection) {
        if (transactionId != 0) {
            transactions.open(transactionId, new ConnectionSession(connection));
        }
    }

    /** The half record of {@code record} in transaction {@code transactionId}; the record itself for 0. */
    static MessageRecord half(MessageRecord record, long transactionId) {
        if (transactionId == 0) {
            return record;
        }
        int flags = RecordFlags.of(RecordType.PREPARED, record.flags() & (RecordFlags.NON_PERSISTENT | RecordFlags.LARGE));
        return new MessageRecord(flags, record.destination(), record.queueId(), transactionId,
                record.bornTimestamp(), record.deliveryTime(), record.tagSignature(), record.properties(),
                record.body());
    }
}
