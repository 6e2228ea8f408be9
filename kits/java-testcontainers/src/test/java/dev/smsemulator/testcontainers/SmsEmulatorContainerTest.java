package dev.smsemulator.testcontainers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.dockerjava.api.command.InspectContainerResponse;
import com.github.dockerjava.api.model.ContainerNetwork;
import com.github.dockerjava.api.model.NetworkSettings;
import com.sun.net.httpserver.HttpServer;
import dev.smsemulator.junit.Emulator;
import dev.smsemulator.junit.KitSettings;
import java.lang.reflect.Field;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.testcontainers.containers.wait.strategy.AbstractWaitStrategy;
import org.testcontainers.containers.wait.strategy.WaitStrategy;
import org.testcontainers.utility.DockerImageName;

/**
 * The container's configuration with no Docker at all: the image (the contract's, {@code SMS_EMULATOR_IMAGE}'s or the
 * argument's), the exposed port, the control token, the URLs from a host and mapped port, the wait on the health path
 * (against a local stand-in), and the errors.
 */
class SmsEmulatorContainerTest {
  /** A container that never runs: its host and mapped port are the test's. */
  static final class Unstarted extends SmsEmulatorContainer {
    int mapped = 49153;

    Unstarted() {
      super(DockerImageName.parse(KitSettings.Container.IMAGE));
    }

    @Override
    public String getHost() {
      return "127.0.0.1";
    }

    @Override
    public Integer getMappedPort(int port) {
      assertEquals(KitSettings.Container.PORT, port, "only the emulator's port is asked for");
      return mapped;
    }

    @Override
    public InspectContainerResponse getContainerInfo() {
      return new InspectContainerResponse() { // the wait names the container in its log
        @Override
        public String getName() {
          return "/unstarted";
        }
      };
    }

    WaitStrategy waitStrategy() {
      return getWaitStrategy();
    }
  }

  @Test
  void theWaitGivesUpAfterTheKitsStartTimeoutNotTestcontainersMinute() throws ReflectiveOperationException {
    Field timeout = AbstractWaitStrategy.class.getDeclaredField("startupTimeout");
    timeout.setAccessible(true);
    assertEquals(Emulator.startTimeout(System.getenv(KitSettings.START_TIMEOUT_ENV)), timeout.get(new Unstarted().waitStrategy()));
  }

  @Test
  void aLocalhostImageThatIsNotLoadedIsRefusedNamingItAndHowToLoadItNotPulled() {
    IllegalStateException refused = assertThrows(IllegalStateException.class,
        () -> SmsEmulatorContainer.requireLoaded(DockerImageName.parse("localhost/sms-emulator:9.9.9"), name -> false));
    assertTrue(refused.getMessage().contains("the image localhost/sms-emulator:9.9.9 is not loaded"), refused.getMessage());
    assertTrue(refused.getMessage().contains("podman load -i or docker load -i"), refused.getMessage());
    SmsEmulatorContainer.requireLoaded(DockerImageName.parse(KitSettings.Container.IMAGE), name -> true);
    SmsEmulatorContainer.requireLoaded(DockerImageName.parse("registry.example/team/sms:2.0"), name -> false); // pullable
  }

  @Test
  void withoutAnImageVariableTheImageIsTheContracts() {
    assertEquals(DockerImageName.parse(KitSettings.Container.IMAGE), SmsEmulatorContainer.defaultImage(name -> null));
    assertEquals(DockerImageName.parse(KitSettings.Container.IMAGE), SmsEmulatorContainer.defaultImage(name -> " "));
  }

  @Test
  void smsEmulatorImageNamesAnotherImageWhateverItsName() {
    Map<String, String> env = Map.of("SMS_EMULATOR_IMAGE", " registry.example/team/sms:2.0 ");
    DockerImageName image = SmsEmulatorContainer.defaultImage(env::get);
    assertEquals("registry.example/team/sms:2.0", image.asCanonicalNameString());
    new SmsEmulatorContainer(image); // taken as the emulator's image: no substitute to declare
  }

  @Test
  void anImageVariableThatIsNotAnImageNameIsAClearError() {
    Map<String, String> env = Map.of("SMS_EMULATOR_IMAGE", "Not An/Image!");
    IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> SmsEmulatorContainer.defaultImage(env::get));
    assertTrue(refused.getMessage().startsWith(
        "sms-emulator: SMS_EMULATOR_IMAGE=\"Not An/Image!\" is not an image name (such as localhost/sms-emulator:0.1.0)"), refused.getMessage());
  }

  @Test
  void theArgumentNamesAnotherTagOfTheImageOrADeclaredSubstitute() {
    new SmsEmulatorContainer(DockerImageName.parse("localhost/sms-emulator:0.2.0"));
    new SmsEmulatorContainer(DockerImageName.parse("registry.example/sms:1").asCompatibleSubstituteFor("localhost/sms-emulator"));
    DockerImageName other = DockerImageName.parse("postgres:16");
    assertThrows(IllegalStateException.class, () -> new SmsEmulatorContainer(other), "another image, not declared a substitute");
  }

  @Test
  void theEmulatorsPortIsExposed() {
    assertEquals(List.of(KitSettings.Container.PORT), new Unstarted().getExposedPorts());
  }

  @Test
  void eachContainerHasAFreshControlTokenInItsEnvironment() {
    Unstarted one = new Unstarted();
    Unstarted two = new Unstarted();
    assertTrue(one.getControlToken().matches("[0-9a-f]{32}"), one.getControlToken());
    assertNotEquals(one.getControlToken(), two.getControlToken());
    assertEquals(one.getControlToken(), one.getEnvMap().get("SMS_EMULATOR_CONTROL_TOKEN"));
  }

  @Test
  void aControlTokenAHeaderCannotCarryIsRefusedWithoutShowingIt() {
    Unstarted container = new Unstarted();
    for (String token : List.of("s3cret\nX-Other: 1", "two words", "p\u00e4sswort", "s3cret\t")) {
      IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> container.withControlToken(token));
      assertTrue(refused.getMessage().startsWith("sms-emulator: a control token is one or more printable ASCII"), refused.getMessage());
      assertTrue(!refused.getMessage().contains(token.substring(0, 4)), "the refusal shows the token: " + refused.getMessage());
    }
    assertEquals("a~Z.0_9-+/=!", container.withControlToken("a~Z.0_9-+/=!").getControlToken());
  }

  @Test
  void withControlTokenSetsTheTokenAndRefusesABlankOne() {
    Unstarted container = new Unstarted();
    assertEquals(container, container.withControlToken("team-token"));
    assertEquals("team-token", container.getControlToken());
    assertEquals("team-token", container.getEnvMap().get("SMS_EMULATOR_CONTROL_TOKEN"));
    IllegalArgumentException blank = assertThrows(IllegalArgumentException.class, () -> container.withControlToken(" "));
    assertEquals("sms-emulator: a container's control token must not be blank", blank.getMessage());
    assertThrows(IllegalArgumentException.class, () -> container.withControlToken(null));
    assertEquals("team-token", container.getEnvMap().get("SMS_EMULATOR_CONTROL_TOKEN"), "a refused token changes nothing");
  }

  @Test
  void theUrlsAreTheMappedPortOnTheHost() {
    Unstarted container = new Unstarted();
    container.mapped = 50001;
    assertEquals("http://127.0.0.1:50001", container.getOrigin());
    assertEquals("http://127.0.0.1:50001/v1", container.getApiUrl());
    assertEquals("http://127.0.0.1:50001/sandbox/v1", container.getSandboxUrl());
    assertEquals("http://127.0.0.1:50001/_emulator", container.getControlUrl());
  }

  /** Network settings as an inspection answers them: networks, each with its gateway. */
  static NetworkSettings settings(String... networks) {
    Map<String, ContainerNetwork> named = new LinkedHashMap<>();
    for (int i = 0; i < networks.length; i++) named.put("net" + i, new ContainerNetwork().withGateway(networks[i]));
    return new NetworkSettings() {
      private static final long serialVersionUID = 1L;

      @Override
      public Map<String, ContainerNetwork> getNetworks() {
        return named;
      }
    };
  }

  @Test
  void theWebhooksGoToTheGatewayOfTheContainersNetwork() {
    assertEquals("10.88.0.1", SmsEmulatorContainer.gateway(settings("10.88.0.1", "172.17.0.1")));
    assertEquals("172.18.0.1", SmsEmulatorContainer.gateway(settings("", null, "172.18.0.1")), "the first network's that has one");
    IllegalStateException none = assertThrows(IllegalStateException.class, () -> SmsEmulatorContainer.gateway(settings()));
    assertTrue(none.getMessage().startsWith("sms-emulator: the container's network has no gateway"), none.getMessage());
  }

  @Test
  void theEmulatorOfAContainerThatIsNotRunningIsAClearError() {
    Unstarted container = new Unstarted();
    IllegalStateException refused = assertThrows(IllegalStateException.class, container::emulator);
    assertEquals("sms-emulator: the container is not running: start() it first", refused.getMessage());
  }

  @Test
  void theWaitGoesOnUntilTheHealthPathAnswers200() throws Exception {
    List<String> asked = new CopyOnWriteArrayList<>();
    AtomicInteger calls = new AtomicInteger();
    HttpServer health = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    health.createContext("/", exchange -> {
      asked.add(exchange.getRequestURI().getPath());
      exchange.sendResponseHeaders(calls.incrementAndGet() == 1 ? 503 : 200, -1); // not ready at first
      exchange.close();
    });
    health.start();
    try {
      Unstarted container = new Unstarted();
      container.mapped = health.getAddress().getPort();
      container.waitStrategy().waitUntilReady(container);
      assertEquals(List.of(KitSettings.Container.HEALTH_PATH, KitSettings.Container.HEALTH_PATH), asked);
    } finally {
      health.stop(0);
    }
  }
}
