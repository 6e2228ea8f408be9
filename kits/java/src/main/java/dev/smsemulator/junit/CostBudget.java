package dev.smsemulator.junit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A test's credit budget, on a test method or its class (each test's; a method's wins): {@code @CostBudget(3)} fails a
 * test of an {@link SmsWorld} whose world's account spent more than 3 credits by the test's end, naming its top
 * spenders as {@link SmsWorld#assertCostAtMost(long)} does. No budget by default; the whole run's is the configuration
 * parameter {@value SmsEmulatorExtension#SUITE_BUDGET}.
 */
@Documented
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
public @interface CostBudget {
  /** The most credits the test's world may spend, from 0. */
  long value();
}
