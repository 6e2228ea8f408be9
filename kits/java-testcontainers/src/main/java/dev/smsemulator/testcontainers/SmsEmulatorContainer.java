package dev.smsemulator.testcontainers;

import com.github.dockerjava.api.exception.NotFoundException;
import com.github.dockerjava.api.model.ContainerNetwork;
import com.github.dockerjava.api.model.NetworkSettings;
import dev.smsemulator.junit.Control;
import dev.smsemulator.junit.Emulator;
import dev.smsemulator.junit.KitSettings;
import dev.smsemulator.junit.SmsClient;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import java.util.function.UnaryOperator;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.utility.DockerImageName;

/**
 * The emulator's image as a Testcontainers container: the image of the kit contract ({@link KitSettings.Container#IMAGE},
 * or {@code SMS_EMULATOR_IMAGE}, or the constructor's), its port exposed, started once its health path answers 200
 * (within the kit's start timeout, {@code SMS_EMULATOR_START_TIMEOUT} as for the carried runtime), with a control token of its own (a fresh random one unless {@link #withControlToken}). {@link #emulator()} hands back
 * the JUnit 5 kit's {@link Emulator}, from which {@code SmsWorld}s come exactly as with the carried runtime: one world
 * per test keeps tests apart on a shared container.
 */
public class SmsEmulatorContainer extends GenericContainer<SmsEmulatorContainer> {
  private static final SecureRandom RANDOM = new SecureRandom();
  /** What an {@code Authorization: Bearer} header carries as sent: printable ASCII without spaces. */
  private static final Pattern HEADER_SAFE = Pattern.compile("[\\x21-\\x7E]+");
  private final DockerImageName image;
  private String controlToken;

  /** The image of {@code SMS_EMULATOR_IMAGE}, else the kit contract's. */
  public SmsEmulatorContainer() {
    this(defaultImage(System::getenv));
  }

  /**
   * Another image of the emulator: the contract's repository at another tag, or one declared its substitute
   * ({@code DockerImageName.parse("registry.example/sms:1").asCompatibleSubstituteFor("localhost/sms-emulator")}).
   *
   * @param image the image
   */
  public SmsEmulatorContainer(DockerImageName image) {
    super(image);
    this.image = image;
    image.assertCompatibleWith(DockerImageName.parse(KitSettings.Container.REPOSITORY));
    withExposedPorts(KitSettings.Container.PORT);
    waitingFor(Wait.forHttp(KitSettings.Container.HEALTH_PATH).forPort(KitSettings.Container.PORT).forStatusCode(200)
        .withStartupTimeout(Emulator.startTimeout(System.getenv(KitSettings.START_TIMEOUT_ENV))));
    withControlToken(newToken());
  }

  /**
   * The image a container starts without an argument: {@code SMS_EMULATOR_IMAGE} when set (taken as the emulator's
   * image whatever its name), else {@link KitSettings.Container#IMAGE}.
   *
   * @param env the environment (a variable's value, or null)
   * @return the image
   * @throws IllegalArgumentException naming the variable, when it is not an image name
   */
  public static DockerImageName defaultImage(UnaryOperator<String> env) {
    String named = env.apply(KitSettings.Container.IMAGE_ENV);
    if (named == null || named.isBlank()) return DockerImageName.parse(KitSettings.Container.IMAGE);
    try {
      DockerImageName image = DockerImageName.parse(named.strip());
      image.assertValid();
      return image.asCompatibleSubstituteFor(KitSettings.Container.REPOSITORY);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(KitSettings.ERROR_PREFIX + KitSettings.Container.IMAGE_ENV + "=\"" + named
          + "\" is not an image name (such as " + KitSettings.Container.IMAGE + "): " + e.getMessage(), e);
    }
  }

  /**
   * Starts the container, first refusing a {@code localhost/} image that is not loaded: no registry serves one, and
   * Testcontainers' pull of it fails with a docker-java NullPointerException that names neither the image nor the fix.
   */
  @Override
  public void start() {
    requireLoaded(image, name -> {
      try {
        DockerClientFactory.lazyClient().inspectImageCmd(name).exec();
        return true;
      } catch (NotFoundException e) {
        return false;
      }
    });
    super.start();
  }

  /**
   * Refuses {@code image} when it is one of the {@code localhost} registry (the kit contract's is) and not loaded.
   *
   * @param image the image
   * @param loaded whether the engine holds an image of that name
   * @throws IllegalStateException naming the image and how to load it
   */
  static void requireLoaded(DockerImageName image, Predicate<String> loaded) {
    String name = image.asCanonicalNameString();
    if ("localhost".equals(image.getRegistry()) && !loaded.test(name))
      throw new IllegalStateException(KitSettings.ERROR_PREFIX + "the image " + name + " is not loaded, and no registry serves a"
          + " localhost/ image: load it first (npm run image writes kits/dist/image/sms-emulator-image.tar; podman load -i or"
          + " docker load -i it), or name a loaded or pullable one with " + KitSettings.Container.IMAGE_ENV);
  }

  /** A fresh control token: 32 hex digits from a secure random source. */
  static String newToken() {
    byte[] bytes = new byte[16];
    RANDOM.nextBytes(bytes);
    return HexFormat.of().formatHex(bytes);
  }

  /**
   * The control token the container's emulator requires, instead of a fresh random one.
   *
   * @param token the token: printable ASCII without spaces
   * @return this container
   */
  public SmsEmulatorContainer withControlToken(String token) {
    if (token == null || token.isBlank())
      throw new IllegalArgumentException(KitSettings.ERROR_PREFIX + "a container's control token must not be blank");
    if (!HEADER_SAFE.matcher(token).matches())
      throw new IllegalArgumentException(KitSettings.ERROR_PREFIX + "a control token is one or more printable ASCII characters"
          + " without spaces (it is sent as \"Authorization: Bearer <token>\"); the one given has characters that are not"
          + " (the token is not shown: the HTTP client's own error would print it)");
    controlToken = token;
    return withEnv(KitSettings.Container.CONTROL_TOKEN_ENV, token);
  }

  /**
   * The control token of the container's emulator (the control API answers 401 without it).
   *
   * @return the token
   */
  public String getControlToken() {
    return controlToken;
  }

  /**
   * The emulator's origin from the host: {@code http://<host>:<mapped port>}.
   *
   * @return the origin
   */
  public String getOrigin() {
    return "http://" + getHost() + ":" + getMappedPort(KitSettings.Container.PORT);
  }

  /**
   * The live API's base URL: {@code <origin>/v1}.
   *
   * @return the URL
   */
  public String getApiUrl() {
    return getOrigin() + SmsClient.API_PATHS.get("live");
  }

  /**
   * The sandbox API's base URL: {@code <origin>/sandbox/v1}.
   *
   * @return the URL
   */
  public String getSandboxUrl() {
    return getOrigin() + SmsClient.API_PATHS.get("sandbox");
  }

  /**
   * The control API's URL: {@code <origin>/_emulator}.
   *
   * @return the URL
   */
  public String getControlUrl() {
    return getOrigin() + Control.PATH;
  }

  /**
   * The address of this machine on the container's network (its gateway): where the worlds' webhook catchers listen
   * and what their URLs name, since the emulator in the container cannot reach this machine's loopback.
   *
   * @return the gateway's address
   */
  public String getWebhookHost() {
    return gateway(getContainerInfo().getNetworkSettings());
  }

  /** The container's gateway: the first of its networks' that has one; else a clear error. */
  static String gateway(NetworkSettings settings) {
    if (settings != null && settings.getNetworks() != null)
      for (ContainerNetwork network : settings.getNetworks().values())
        if (network.getGateway() != null && !network.getGateway().isBlank()) return network.getGateway();
    throw new IllegalStateException(KitSettings.ERROR_PREFIX + "the container's network has no gateway for its webhooks to reach"
        + " this machine by (a bridge network has one; the host network has none)");
  }

  /**
   * The kit's {@link Emulator} on this started container, reached as the kit reaches any running emulator
   * ({@link Emulator#at}), its webhooks posted to {@link #getWebhookHost}; its worlds come from
   * {@code SmsWorld.builder().create(emulator)} or {@code new SmsWorld(emulator, name)}. Closing it leaves the container
   * running: the container's own {@link #stop} (or Testcontainers' lifecycle) stops it.
   *
   * @return the emulator
   * @throws IllegalStateException when the container is not running
   */
  public Emulator emulator() {
    return emulator(null);
  }

  /** The emulator on this started container, closing {@code owner} when it is closed. */
  Emulator emulator(AutoCloseable owner) {
    if (!isRunning()) throw new IllegalStateException(KitSettings.ERROR_PREFIX + "the container is not running: start() it first");
    return Emulator.at(getOrigin(), controlToken, getWebhookHost(), owner);
  }
}
