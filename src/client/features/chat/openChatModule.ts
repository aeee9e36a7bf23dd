// A stored chat (OpenChat.tsx, with its virtualised thread) comes in its own chunk: a new
// conversation, what a first visit opens, has no use for it. /app's loader
// loads it with the chat's messages (routes/_app/app.tsx); once loaded, ChatPage renders it
// directly. Through React.lazy alone, a module already loaded still suspended once on its first
// render, and React holds a revealed Suspense boundary back for up to 300 ms: the messages came
// that much later. The bubbles' time formatters are made in a task of their own as soon as it has
// loaded, while the messages are usually still on their way (Bubbles.tsx, prepareStamps).
import { prepareStamps } from './Bubbles';

let loaded: typeof import('./OpenChat') | undefined;

export function loadOpenChat(): Promise<typeof import('./OpenChat')> {
  return import('./OpenChat').then((module) => {
    if (!loaded) setTimeout(prepareStamps, 0);
    loaded = module;
    return module;
  });
}

export function loadedOpenChat(): typeof import('./OpenChat') | undefined {
  return loaded;
}
