package io.ramjet.controller;

import java.io.IOException;
import java.time.Duration;

/** No controller answered a call within its timeout: the group has no leader, or no quorum, or is unreachable. */
public final class ControllerUnavailableException extends IOException {

    ControllerUnavailableException(String call, Duration timeout, Throwable lastFailure) {
        super("no controller answered " + call + " within " + timeout.toMillis() + " ms", lastFailure);
    }
}
