package io.ramjet.it;

import org.springframework.jms.annotation.JmsListener;
import org.springframework.stereotype.Component;

import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/** Listens on {@value #QUEUE} and keeps what arrives for whoever asks. */
@Component
public class Greetings {

    public static final String QUEUE = "greetings";

    private final BlockingQueue<String> received = new LinkedBlockingQueue<>();

    @JmsListener(destination = QUEUE)
    void receive(String body) {
        received.add(body);
    }

    /** The next greeting received, or null after {@code timeout}. */
    public String next(Duration timeout) throws InterruptedException {
        return received.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }
}
