package io.ramjet.protocol.command;

import java.util.List;

/**
 * Response header of {@link CommandCode#XA_RECOVER}: every XA branch prepared on the broker and
 * not yet ended, in {@link io.ramjet.model.XidCodec} form, surviving broker restarts.
 */
public record XaRecoverResponse(List<String> xids) {

    public XaRecoverResponse {
        xids = List.copyOf(xids);
    }
}
