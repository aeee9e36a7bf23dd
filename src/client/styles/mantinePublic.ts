// Mantine's styles for the public pages (/, /terms, /privacy, the not-found page) and the
// loading screens: the global styles and only the components those pages draw, imported by the
// entry (main.tsx) and so in the one render-blocking stylesheet. Mantine's whole stylesheet was
// 250 KB (30 KB brotli), about 85% of it unused by the landing page (Lighthouse).
// The other components' styles come with the screens that use them (mantineApp.ts).
//
// Order matters (https://mantine.dev/styles/css-files-list/): the global files first, then the
// components in the order of Mantine's own styles.css, a component's dependencies (such as
// UnstyledButton for Button) before it. A file imported here and again in mantineApp.ts is
// bundled once, here.
import '@mantine/core/styles/baseline.css';
import '@mantine/core/styles/default-css-variables.css';
import '@mantine/core/styles/global.css';
import '@mantine/core/styles/UnstyledButton.css';
import '@mantine/core/styles/VisuallyHidden.css';
import '@mantine/core/styles/Paper.css';
import '@mantine/core/styles/Loader.css';
import '@mantine/core/styles/Group.css';
import '@mantine/core/styles/Flex.css';
import '@mantine/core/styles/Text.css';
import '@mantine/core/styles/Anchor.css';
import '@mantine/core/styles/Badge.css';
import '@mantine/core/styles/Button.css';
import '@mantine/core/styles/Card.css';
import '@mantine/core/styles/Center.css';
import '@mantine/core/styles/Code.css';
import '@mantine/core/styles/Container.css';
import '@mantine/core/styles/Grid.css';
import '@mantine/core/styles/List.css';
import '@mantine/core/styles/SimpleGrid.css';
import '@mantine/core/styles/Stack.css';
import '@mantine/core/styles/ThemeIcon.css';
import '@mantine/core/styles/Title.css';
