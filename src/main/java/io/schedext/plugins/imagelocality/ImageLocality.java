package io.schedext.plugins.imagelocality;

import io.schedext.framework.CycleState;
import io.schedext.framework.Handle;
import io.schedext.framework.ImageStateSummary;
import io.schedext.framework.NodeInfo;
import io.schedext.framework.PluginArgs;
import io.schedext.framework.PodInfo;
import io.schedext.framework.PreScorePlugin;
import io.schedext.framework.ScorePlugin;
import io.schedext.framework.StateData;
import io.schedext.framework.Status;
import io.schedext.plugins.Names;
import java.util.List;
import java.util.Map;

/**
 * Favours nodes that already hold the pod's container images (init and regular containers; not
 * image volumes, as in 1.34): each present image counts its size times the share of nodes that have
 * it, the sum is clamped to [23 MiB, 1000 MiB × containers] and scaled to 0–100. Upstream's {@code
 * ImageLocality}; the PreScore here only normalises the image names once per cycle (upstream has
 * none). Thread-safe.
 */
public final class ImageLocality implements PreScorePlugin, ScorePlugin {

  /** The registered name. */
  public static final String NAME = Names.IMAGE_LOCALITY;

  static final String PRE_SCORE_STATE_KEY = "PreScore" + NAME;

  private static final long MB = 1024L * 1024;
  // The 90th percentile of compressed image sizes on Docker Hub falls into this range.
  private static final long MIN_THRESHOLD = 23 * MB;
  private static final long MAX_CONTAINER_THRESHOLD = 1000 * MB;

  @Override
  public String name() {
    return NAME;
  }

  /** Normalises the pod's image names once for the cycle. */
  @Override
  public Status preScore(CycleState state, PodInfo pod, List<NodeInfo> nodes) {
    state.write(PRE_SCORE_STATE_KEY, PodImages.of(pod));
    return Status.success();
  }

  /**
   * The image score of {@code node}; spread is measured against the cycle snapshot's node count.
   */
  @Override
  public long score(CycleState state, PodInfo pod, NodeInfo node) {
    StateData s = state.readOrNull(PRE_SCORE_STATE_KEY);
    PodImages images = s instanceof PodImages p ? p : PodImages.of(pod);
    int totalNumNodes = state.snapshot().size();
    return calculatePriority(sumImageScores(node, images, totalNumNodes), images.names().length);
  }

  /** Maps the summed image score into 0–100 between the thresholds. */
  static long calculatePriority(long sumScores, int numContainers) {
    long maxThreshold = MAX_CONTAINER_THRESHOLD * numContainers;
    long sum = sumScores;
    if (sum < MIN_THRESHOLD) {
      sum = MIN_THRESHOLD;
    } else if (sum > maxThreshold) {
      sum = maxThreshold;
    }
    return MAX_NODE_SCORE * (sum - MIN_THRESHOLD) / (maxThreshold - MIN_THRESHOLD);
  }

  private static long sumImageScores(NodeInfo node, PodImages images, int totalNumNodes) {
    if ((node.imageBits() & images.bits()) == 0) {
      // None of the pod's images is on the node: the sum is 0 without a lookup.
      return 0;
    }
    Map<String, ImageStateSummary> states = node.imageStates();
    long sum = 0;
    for (String image : images.names()) {
      ImageStateSummary state = states.get(image);
      if (state != null) {
        sum += scaledImageScore(state, totalNumNodes);
      }
    }
    return sum;
  }

  /**
   * The image size scaled by the share of nodes holding it, against piling pods onto the few nodes
   * that have it.
   */
  private static long scaledImageScore(ImageStateSummary state, int totalNumNodes) {
    double spread = (double) state.numNodes() / (double) totalNumNodes;
    return (long) ((double) state.size() * spread);
  }

  /**
   * Upstream's CRI-style normalisation: adds ":latest" when the name has no tag after its last "/";
   * digests ({@code repo@sha256:...}) and registry ports ({@code host:5000/repo}) are handled by
   * that same rule.
   */
  static String normalizedImageName(String name) {
    String n = name == null ? "" : name;
    if (n.lastIndexOf(':') <= n.lastIndexOf('/')) {
      return n + ":latest";
    }
    return n;
  }

  /** The factory registered under {@link Names#IMAGE_LOCALITY}; the plugin takes no arguments. */
  public static ImageLocality create(PluginArgs args, Handle handle) {
    return new ImageLocality();
  }
}
