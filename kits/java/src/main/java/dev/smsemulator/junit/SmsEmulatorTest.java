package dev.smsemulator.junit;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Gives each test of the class (or the method) an {@link SmsWorld} parameter on the run's emulator: the one the
 * resolution order finds ({@link Resolution}), or with {@code container = true} the run's container.
 */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@ExtendWith(SmsEmulatorExtension.class)
public @interface SmsEmulatorTest {
  /**
   * Whether the worlds come from the emulator in a container (the image of {@link KitSettings.Container#IMAGE}, or
   * {@code SMS_EMULATOR_IMAGE}), started once for the run by the Testcontainers module
   * ({@code dev.smsemulator:sms-emulator-testcontainers}, found by {@link EmulatorContainerProvider}) and stopped when
   * the run ends; else (the default) from the emulator of the resolution order.
   *
   * @return true for the container
   */
  boolean container() default false;
}
