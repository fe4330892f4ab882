package io.schedext.framework;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.schedext.testing.MakeNode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link NodeInfoList} behaves as any list of its node infos, with their generations beside them.
 */
class NodeInfoListTest {

  private static NodeInfo[] infos(int n) {
    NodeInfo[] out = new NodeInfo[n];
    for (int i = 0; i < n; i++) {
      out[i] = MakeNode.node().name("n" + i).info();
    }
    return out;
  }

  @Test
  void toArrayFollowsTheListContract() {
    NodeInfo[] nodes = infos(3);
    NodeInfoList list = new NodeInfoList(nodes);
    List<NodeInfo> same = new ArrayList<>(Arrays.asList(nodes));

    assertThat(list.toArray()).containsExactly((Object[]) nodes).isNotSameAs(nodes);
    NodeInfo[] exact = new NodeInfo[3];
    assertThat(list.toArray(exact)).isSameAs(exact).containsExactly(nodes);
    NodeInfo[] larger = infos(5);
    NodeInfo[] largerForArrayList = larger.clone();
    assertThat(list.toArray(larger)).isSameAs(larger).isEqualTo(same.toArray(largerForArrayList));
    assertThat(larger[3]).as("terminated after the last element").isNull();
    assertThat(larger[4]).as("left alone beyond that").isSameAs(largerForArrayList[4]);
    Object[] asObjects = list.toArray(new Object[0]);
    assertThat(asObjects).containsExactly((Object[]) nodes);
    assertThat(list.toArray(new NodeInfo[0])).isInstanceOf(NodeInfo[].class).containsExactly(nodes);
    assertThatThrownBy(() -> list.toArray(new String[0])).isInstanceOf(ArrayStoreException.class);
  }

  @Test
  void generationsAreTheNodeInfosOwn() {
    NodeInfo[] nodes = infos(2);
    assertThat(new NodeInfoList(nodes).generations())
        .containsExactly(nodes[0].generation(), nodes[1].generation());
    assertThatThrownBy(() -> new NodeInfoList(nodes, new long[1]))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
