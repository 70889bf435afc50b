package io.ramjet.ra.it.app;

import jakarta.ejb.ConcurrencyManagement;
import jakarta.ejb.ConcurrencyManagementType;
import jakarta.ejb.Singleton;
import java.util.concurrent.atomic.AtomicInteger;

/** How many times the poison bean was handed a message. */
@Singleton
@ConcurrencyManagement(ConcurrencyManagementType.BEAN)
public class Attempts {

    private final AtomicInteger count = new AtomicInteger();

    public int increment() {
        return count.incrementAndGet();
    }

    public int count() {
        return count.get();
    }
}
