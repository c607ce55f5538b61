import Broadcast
