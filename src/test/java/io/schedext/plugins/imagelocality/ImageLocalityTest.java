package io.schedext.plugins.imagelocality;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerImage;
import io.fabric8.kubernetes.api.model.ImageVolumeSource;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Volume;
import io.schedext.framework.CycleState;
import io.schedext.framework.ImageStateSummary;
import io.schedext.framework.NodeInfo;
import io.schedext.framework.PodInfo;
import io.schedext.testing.MakeNode;
import io.schedext.testing.MakePod;
import io.schedext.testing.NodeWrapper;
import io.schedext.testing.PodWrapper;
import io.schedext.testing.TestFrameworks;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Upstream's image_locality_test.go: TestImageLocalityPriority and TestNormalizedImageName, plus a
 * pod with an image volume, which 1.34.9 does not count.
 */
class ImageLocalityTest {

  private static final long MB = 1024L * 1024;

  record Case(String name, PodInfo pod, List<Node> nodes, boolean runPreScore, List<Long> want) {
    @Override
    public String toString() {
      return name;
    }
  }

  /** A pod whose regular containers run {@code images}. */
  private static PodWrapper pod(String... images) {
    PodWrapper p = MakePod.pod().name("p");
    for (String image : images) {
      p.container(image);
    }
    return p;
  }

  private static Node node(String name, Object... sizeAndNames) {
    NodeWrapper n = MakeNode.node().name(name);
    for (int i = 0; i < sizeAndNames.length; i += 2) {
      n.image((Long) sizeAndNames[i] * MB, (String[]) sizeAndNames[i + 1]);
    }
    return n.obj();
  }

  private static String[] names(String... names) {
    return names;
  }

  private static Node node403002000(String name) {
    return node(
        name,
        40L,
        names("gcr.io/40:latest", "gcr.io/40:v1", "gcr.io/40:v1"),
        300L,
        names("gcr.io/300:latest", "gcr.io/300:v1"),
        2000L,
        names("gcr.io/2000:latest"));
  }

  private static Node node25010(String name) {
    return node(
        name, 250L, names("gcr.io/250:latest"), 10L, names("gcr.io/10:latest", "gcr.io/10:v1"));
  }

  private static Node node400030(String name) {
    return node(name, 4000L, names("gcr.io/4000:latest"), 30L, names("gcr.io/30:latest"));
  }

  private static Node node203040(String name) {
    return node(
        name,
        20L,
        names("gcr.io/20:latest"),
        30L,
        names("gcr.io/30:latest"),
        40L,
        names("gcr.io/40:latest"));
  }

  static Stream<Case> cases() {
    Stream.Builder<Case> b = Stream.builder();
    for (boolean preScore : new boolean[] {true, false}) {
      String suffix = preScore ? "" : ", without PreScore";
      b.add(
          new Case(
              "two images spread on two nodes, the node with the larger one is preferred" + suffix,
              pod("gcr.io/40", "gcr.io/250").info(),
              List.of(node403002000("node1"), node25010("node2")),
              preScore,
              List.of(0L, 5L)));
    }
    PodWrapper withInit = pod("gcr.io/30");
    Container init = new Container();
    init.setName("init");
    init.setImage("gcr.io/300");
    withInit.obj().getSpec().setInitContainers(new ArrayList<>(List.of(init)));
    PodWrapper withImageVolume = pod("gcr.io/30");
    Volume volume = new Volume();
    volume.setName("models");
    volume.setImage(new ImageVolumeSource("IfNotPresent", "gcr.io/300"));
    withImageVolume.volume(volume);
    return Stream.concat(
        b.build(),
        Stream.of(
            new Case(
                "both images on one node make that node preferred",
                pod("gcr.io/40", "gcr.io/300").info(),
                List.of(node403002000("node1"), node25010("node2")),
                true,
                List.of(7L, 0L)),
            new Case(
                "a sum above the maximum threshold is clamped to it",
                pod("gcr.io/10", "gcr.io/4000").info(),
                List.of(node400030("node1"), node25010("node2")),
                true,
                List.of(100L, 0L)),
            new Case(
                "a node without images dilutes the spread of the others",
                pod("gcr.io/10", "gcr.io/4000").info(),
                List.of(node400030("node1"), node25010("node2"), node("node3")),
                true,
                List.of(66L, 0L, 0L)),
            new Case(
                "several large images: the node holding all of them is preferred",
                pod("gcr.io/300", "gcr.io/600", "gcr.io/900").info(),
                List.of(
                    node(
                        "node1",
                        600L,
                        names("gcr.io/600:latest"),
                        40L,
                        names("gcr.io/40:latest"),
                        900L,
                        names("gcr.io/900:latest")),
                    node(
                        "node2",
                        300L,
                        names("gcr.io/300:latest"),
                        600L,
                        names("gcr.io/600:latest"),
                        900L,
                        names("gcr.io/900:latest")),
                    node("node3")),
                true,
                List.of(32L, 36L, 0L)),
            new Case(
                "several small images barely score",
                pod("gcr.io/30", "gcr.io/40").info(),
                List.of(node203040("node1"), node400030("node2")),
                true,
                List.of(1L, 0L)),
            new Case(
                "init containers' images count and raise the maximum threshold",
                withInit.info(),
                List.of(node403002000("node1"), node203040("node2")),
                true,
                List.of(6L, 0L)),
            new Case(
                "an image volume counts neither in the sum nor in the maximum threshold",
                withImageVolume.info(),
                List.of(node403002000("node1"), node203040("node2")),
                true,
                List.of(0L, 0L)),
            new Case(
                "a pod without containers scores 0",
                MakePod.pod().name("p").info(),
                List.of(node403002000("node1")),
                true,
                List.of(0L)),
            new Case(
                "an image named by digest matches only that exact name",
                pod("gcr.io/250@" + digest("250")).info(),
                List.of(
                    node("node1", 250L, names("gcr.io/250@" + digest("250"))),
                    node("node2", 250L, names("gcr.io/250:latest"))),
                true,
                List.of(10L, 0L))));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void score(Case c) {
    ImageLocality plugin = ImageLocality.create(null, null);
    List<NodeInfo> infos = infos(c.nodes());
    CycleState state = TestFrameworks.cycleState(infos);
    if (c.runPreScore()) {
      assertThat(plugin.preScore(state, c.pod(), infos).isSuccess()).isTrue();
    }
    List<Long> got = new ArrayList<>();
    for (NodeInfo n : infos) {
      got.add(plugin.score(state, c.pod(), n));
    }
    assertThat(got).isEqualTo(c.want());
  }

  record NameCase(String name, String input, String want) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<NameCase> names() {
    return Stream.of(
        new NameCase("a bare name gets :latest", "root", "root:latest"),
        new NameCase(
            "a registry port is not mistaken for a tag",
            "gcr.io:5000/root",
            "gcr.io:5000/root:latest"),
        new NameCase("a tagged name is kept", "root:tag", "root:tag"),
        new NameCase("a digest is kept", "root@" + digest("root"), "root@" + digest("root")),
        new NameCase("a missing image becomes :latest", null, ":latest"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("names")
  void normalizedImageName(NameCase c) {
    assertThat(ImageLocality.normalizedImageName(c.input())).isEqualTo(c.want());
  }

  /**
   * Node infos with image states as upstream's test snapshot builds them: per node, each listed
   * name maps to that node's image size and the number of nodes listing the name.
   */
  private static List<NodeInfo> infos(List<Node> nodes) {
    Map<String, Set<String>> holders = new HashMap<>();
    for (Node n : nodes) {
      for (ContainerImage image : images(n)) {
        for (String name : image.getNames()) {
          holders.computeIfAbsent(name, k -> new HashSet<>()).add(n.getMetadata().getName());
        }
      }
    }
    List<NodeInfo> out = new ArrayList<>();
    for (Node n : nodes) {
      Map<String, ImageStateSummary> states = new HashMap<>();
      for (ContainerImage image : images(n)) {
        for (String name : image.getNames()) {
          states.putIfAbsent(
              name, new ImageStateSummary(image.getSizeBytes(), holders.get(name).size()));
        }
      }
      NodeInfo info = NodeInfo.of(n);
      info.setImageStates(states);
      out.add(info);
    }
    return out;
  }

  private static List<ContainerImage> images(Node n) {
    return n.getStatus().getImages() == null ? List.of() : n.getStatus().getImages();
  }

  private static String digest(String content) {
    try {
      byte[] hash =
          MessageDigest.getInstance("SHA-256").digest(content.getBytes(StandardCharsets.UTF_8));
      return "sha256:" + String.format("%064x", new BigInteger(1, hash));
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}
