package dev.smsemulator.junit;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/** Gives each test of the class (or the method) an {@link SmsWorld} parameter on the run's emulator. */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@ExtendWith(SmsEmulatorExtension.class)
public @interface SmsEmulatorTest {}
