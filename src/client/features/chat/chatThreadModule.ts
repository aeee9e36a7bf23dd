// A stored chat's virtualised thread (ChatThread.tsx) comes in its own chunk: a new conversation,
// what a first visit opens, has no use for it (issue 10). /app's loader loads it with the chat's
// messages (routes/_app/app.tsx); once loaded, ChatPage renders it directly. Through React.lazy
// alone, a thread already loaded still suspended once on its first render, and React holds a
// revealed Suspense boundary back for up to 300 ms: the messages came that much later.
// The thread's bubbles' time formatters are made in a task of their own as soon as it has loaded,
// while the messages are usually still on their way (Bubbles.tsx, prepareStamps).
import { prepareStamps } from './Bubbles';

let loaded: typeof import('./ChatThread') | undefined;

export function loadChatThread(): Promise<typeof import('./ChatThread')> {
  return import('./ChatThread').then((module) => {
    if (!loaded) setTimeout(prepareStamps, 0);
    loaded = module;
    return module;
  });
}

export function loadedChatThread(): typeof import('./ChatThread') | undefined {
  return loaded;
}
